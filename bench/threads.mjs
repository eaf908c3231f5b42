// Child process of bench/run.mjs: the same gather cases through onnx-wasm's pthreads build (the
// default in Node), alone in its process, once the workers are ready. Prints { id: median µs }.
//   node bench/threads.mjs [--quick] [--only id,id]
import { benchCases } from './models.mjs';
import { time } from './timing.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const o = await import('../js/index.mjs');
const info = await o.init();
await o.threadsReady();
const out = { module: info.module, threads: o.runtime().threads, active: o.runtime().threadsActive, us: {} };
for (const c of benchCases({ small: quick })) {
  if ((only && !only.includes(c.id)) || !c.movedBytes) continue;
  const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)]));
  const s = await o.InferenceSession.create(c.bytes);
  const big = (c.ortWebUs ?? 0) > 20000;
  const opts = big ? { warmup: 10, budgetMs: quick ? 300 : 2500, max: 300 } : { warmup: 100, budgetMs: quick ? 300 : 2000, max: 20000 };
  out.us[c.id] = await time(async () => { const r = await s.run(feeds); r.out.dispose(); }, opts);
  await s.release();
  for (const t of Object.values(feeds)) t.dispose();
}
console.log(JSON.stringify(out));

