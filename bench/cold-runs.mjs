// Cold runs: pages that run a model once per user action live in the first 50 runs of a fresh
// session, before any JIT has warmed up. For each engine, in a fresh process: the first run, the
// median of runs 2 to 50 (each timed alone), and the steady state (the median after 300 ms of
// warm-up) of the same session, on the tiny Gather (and the embedding lookup). Run by
// `npm run bench` (bench/run.mjs) or alone: node bench/cold-runs.mjs [--json out.json]
// The parent writes each case (model and feeds) to a folder; the child only reads it, so that no
// other JavaScript has run in its process before the session, as in a fresh page: building the
// cases there first (bench/models.mjs) had warmed V8's for-of loops and hid their cold cost.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './timing.mjs';

const ENGINES = ['onnx-wasm', 'onnx-wasm (1 thread)', 'onnxruntime-web'];
const CASES = ['tiny', 'embedding-init'];

const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array };

// A case as the parent wrote it (writeCaseFiles): { bytes, feeds: { name: { type, data, dims } } }.
function readCase(dir) {
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  const feeds = {};
  for (const { name, type, dims } of meta.feeds) {
    const raw = readFileSync(join(dir, `${name}.bin`));
    feeds[name] = { type, dims, data: new ARRAYS[type](raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)) };
  }
  return { bytes: new Uint8Array(readFileSync(join(dir, 'model.onnx'))), feeds };
}

async function child(engine, dir) {
  const c = readCase(dir);
  let run;
  if (engine.startsWith('onnx-wasm')) {
    const o = await import('../dist/index.mjs');
    await o.init(engine.includes('1 thread') ? { threads: false } : {});
    const s = await o.InferenceSession.create(c.bytes);
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)]));
    run = async () => { const r = await s.run(feeds); r.out.dispose(); };
  } else {
    const { createRequire } = await import('node:module');
    const ort = createRequire(import.meta.url)('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    const s = await ort.InferenceSession.create(c.bytes);
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)]));
    run = async () => { (await s.run(feeds)).out.dispose?.(); };
  }
  const us = [];
  for (let k = 0; k < 50; ++k) {
    const t0 = process.hrtime.bigint();
    await run();
    us.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  const warm = performance.now();
  while (performance.now() - warm < 300) await run();
  const steady = [];
  for (let k = 0; k < 2000; ++k) {
    const t0 = process.hrtime.bigint();
    await run();
    steady.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return { firstUs: us[0], coldUs: median(us.slice(1)), steadyUs: median(steady) };
}

if (process.argv[2] === '--child') {   // --child <engine> <case folder>
  console.log(JSON.stringify(await child(process.argv[3], process.argv[4])));
  process.exit(0);
}

export async function coldRuns() {
  const { benchCases, writeCaseFiles } = await import('./models.mjs');
  const root = mkdtempSync(join(tmpdir(), 'onnx-wasm-cold-'));
  const cases = benchCases({ small: true });
  const rows = [];
  for (const id of CASES) {
    const dir = join(root, id);
    writeCaseFiles(dir, cases.find((x) => x.id === id));
    for (const engine of ENGINES) {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', engine, dir], { encoding: 'utf8', timeout: 120000 });
      const x = JSON.parse(r.stdout.trim().split('\n').at(-1) || '{}');
      rows.push({ case: id, engine, 'first run µs': x.firstUs?.toFixed(1), 'runs 2-50, median µs': x.coldUs?.toFixed(2), 'steady µs': x.steadyUs?.toFixed(2), 'cold / steady': x.coldUs ? `${(x.coldUs / x.steadyUs).toFixed(1)}x` : r.stderr.trim().split('\n').at(-1) });
    }
  }
  rmSync(root, { recursive: true, force: true });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await coldRuns();
  console.log('\nCold runs: a fresh process each; first run, the median of runs 2 to 50, and the steady state of the same session');
  console.table(rows);
  const i = process.argv.indexOf('--json');
  if (i > 0) writeFileSync(process.argv[i + 1], JSON.stringify(rows, null, 1));
}
