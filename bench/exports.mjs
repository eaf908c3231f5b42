// `npm run bench -- --exports`: the torch exports of issue 29 (tests/fixtures/torch) on torch's
// inputs, onnx-wasm against onnxruntime-web (wasm, 1 thread) and onnxruntime-node, in one process.
// Per model the median run time of each, and the ratio that issue 29 sets a target for: a run of
// the dynamic-axes `view(x.size(0), -1)` export against the static `reshape(-1, dim)` one (target
// 1.2x or less: its shape subgraph computed once per distinct dims). A benchmark, not a test:
// nothing here asserts a time.
//   node bench/exports.mjs [--quick] [--opset 17]
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { time } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// onnxruntime-node must be loaded before onnxruntime-web, or its sessions silently run on the web backend.
const ortNode = require('onnxruntime-node');
const ortWeb = require('onnxruntime-web');
const onnxWasm = await import('../js/index.mjs');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const opset = args.includes('--opset') ? Number(args[args.indexOf('--opset') + 1]) : 17;
ortWeb.env.wasm.numThreads = 1;
ortWeb.env.logLevel = 'error';
const info = await onnxWasm.init({ threads: false });

const fixtures = join(root, 'tests/fixtures/torch');
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'));
const ARRAYS = { float32: Float32Array, float16: Uint16Array, int64: BigInt64Array, int32: Int32Array, int8: Int8Array, uint8: Uint8Array };
const arrayOf = ({ type, data }) => new ARRAYS[type](new Uint8Array(Buffer.from(data, 'base64')).buffer);
const sameBytes = (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

const budget = { warmup: 50, warmupMs: quick ? 100 : 300, budgetMs: quick ? 300 : 1500, max: 20000 };
const rows = [];
/** @type {Map<string, number>} */
const ours = new Map();
for (const m of manifest.models) {
  if (m.opset !== opset || !m.folding) continue;
  const bytes = readFileSync(join(fixtures, 'models', `${m.name}.onnx`));
  let s;
  try {
    s = await onnxWasm.InferenceSession.create(bytes);
  } catch (e) {
    rows.push({ model: m.name, 'onnx-wasm µs': `refused (${e.code})` });
    continue;
  }
  const c = m.cases[0];
  const feedsOurs = {}, feedsNode = {}, feedsWeb = {};
  for (const i of c.inputs) {
    if (!s.inputNames.includes(i.name)) continue;
    feedsOurs[i.name] = new onnxWasm.Tensor(i.type, arrayOf(i), i.dims);
    feedsNode[i.name] = new ortNode.Tensor(i.type, arrayOf(i), i.dims);
    feedsWeb[i.name] = new ortWeb.Tensor(i.type, arrayOf(i), i.dims);
  }
  const sNode = await ortNode.InferenceSession.create(bytes);
  const sWeb = await ortWeb.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  const out = (r) => Object.values(r)[0];
  const a = out(await s.run(feedsOurs)), b = out(await sNode.run(feedsNode)), w = out(await sWeb.run(feedsWeb));
  const identical = sameBytes(a.data, b.data) && sameBytes(a.data, w.data);
  a.dispose();
  const usOurs = await time(async () => { for (const t of Object.values(await s.run(feedsOurs))) t.dispose(); }, budget);
  const usWeb = await time(() => sWeb.run(feedsWeb), budget);
  const usNode = await time(() => sNode.run(feedsNode), budget);
  ours.set(`${m.module}.${m.dynamic ? 'dynamic' : 'static'}`, usOurs);
  rows.push({
    model: m.name, ops: m.ops.join('+') || '(none)',
    'onnx-wasm µs': usOurs.toFixed(1), 'ORT-web µs': usWeb.toFixed(1), 'ORT-node µs': usNode.toFixed(1),
    'vs ORT-web': `${(usWeb / usOurs).toFixed(1)}x`, 'vs ORT-node': `${(usNode / usOurs).toFixed(1)}x`, identical: identical ? 'yes' : 'NO',
  });
  await s.release(); await sNode.release(); await sWeb.release();
  for (const t of Object.values(feedsOurs)) t.dispose();
}
console.log(`torch exports at opset ${opset} (constant folding on), torch's first case; onnx-wasm ${info.module}, 1 thread; onnxruntime-web ${ortWeb.env.versions.web}, 1 thread; Node ${process.version}`);
console.table(rows);
const dyn = ours.get('emb_view_size0.dynamic'), stat = ours.get('emb_reshape.static');
if (dyn && stat)
  console.log(`issue 29: the dynamic view(x.size(0), -1) run against the static reshape(-1, dim) one: ${(dyn / stat).toFixed(2)}x (target 1.2x or less; ${dyn.toFixed(1)} against ${stat.toFixed(1)} µs)`);
