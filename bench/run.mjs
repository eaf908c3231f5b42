// `npm run bench`: onnx-wasm against onnxruntime-web (wasm backend, 1 thread) and
// onnxruntime-node (native reference) on the same models and inputs, in one process.
// Prints per case the median time of many runs after warm-up, GB/s, the ratio to ORT-web and the
// issue's target; checks that all three give identical outputs; then module sizes and the time
// to a first result in a fresh process, and cold runs (bench/cold-runs.mjs). A benchmark, not a
// test: nothing here asserts a time. --browser runs the same in Chromium instead (bench/browser.mjs);
// --embeddings runs bench/embeddings.mjs (with --browser: its Chromium/OPFS section).
//   node bench/run.mjs [--quick] [--only id,id] [--browser]
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROCESSES, coldRuns } from './cold-runs.mjs';
import { benchCases } from './models.mjs';
import { median, time } from './timing.mjs';

// (--embeddings first: `--embeddings --browser` is the embeddings bench in Chromium, bench/embeddings.mjs)
if (process.argv.includes('--embeddings')) {
  await import('./embeddings.mjs');
  process.exit(process.exitCode ?? 0);
}
if (process.argv.includes('--browser')) {
  await import('./browser.mjs');
  process.exit(process.exitCode ?? 0);
}
if (process.argv.includes('--exports')) {
  await import('./exports.mjs');
  process.exit(process.exitCode ?? 0);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// onnxruntime-node must be loaded before onnxruntime-web, or its sessions silently run on the web backend.
const ortNode = require('onnxruntime-node');
const ortWeb = require('onnxruntime-web');
const onnxWasm = await import('../js/index.mjs');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
ortWeb.env.wasm.numThreads = 1;
ortWeb.env.logLevel = 'error';
// The comparison with ORT-web (1 thread) uses onnx-wasm's one-thread SIMD build; the pthreads
// build (Node's default) runs afterwards in a child process, alone, for its own column.
const info = await onnxWasm.init({ threads: false });

function bytesOf(data) {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function sameBytes(a, b) {
  const x = bytesOf(a), y = bytesOf(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; ++i) if (x[i] !== y[i]) return false;
  return true;
}

const rows = [];
for (const c of benchCases({ small: quick })) {
  if (only && !only.includes(c.id)) continue;
  // Feeds: ORT takes its own Tensors (copied into ORT-web's wasm heap on every run); onnx-wasm
  // takes Tensors that live in wasm memory, created once and reused with no copy.
  const toOrt = (ort) => Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)]));
  const feedsNode = toOrt(ortNode), feedsWeb = toOrt(ortWeb);
  const feedsOurs = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new onnxWasm.Tensor(f.type, f.data, f.dims)]));

  const sNode = await ortNode.InferenceSession.create(c.bytes);
  const sWeb = await ortWeb.InferenceSession.create(c.bytes, { executionProviders: ['wasm'] });
  const sOurs = await onnxWasm.InferenceSession.create(c.bytes);

  // Identical outputs from all three.
  const oNode = (await sNode.run(feedsNode)).out;
  const oWeb = (await sWeb.run(feedsWeb)).out;
  const oOurs = (await sOurs.run(feedsOurs)).out;
  const identical = sameBytes(oNode.data, oWeb.data) && sameBytes(oNode.data, oOurs.data) &&
    JSON.stringify(Array.from(oNode.dims)) === JSON.stringify(Array.from(oOurs.dims));
  oWeb.dispose?.();
  oOurs.dispose();

  // ORT's slow cases (tens of ms a run) get few runs; every onnx-wasm case is warmed up for
  // 300 ms, so that the JIT has compiled its path (a view op is a few µs: 10 runs leave it cold).
  const big = (c.ortWebUs ?? 0) > 20000;
  const opts = big ? { warmup: 2, budgetMs: quick ? 300 : 2500, max: 30 } : { warmup: 20, budgetMs: quick ? 300 : 2000, max: 20000 };
  const usOurs = await time(async () => { const r = await sOurs.run(feedsOurs); r.out.dispose(); }, { warmup: 100, warmupMs: quick ? 100 : 300, budgetMs: quick ? 300 : 2000, max: 20000 });
  const usWeb = await time(async () => { const r = await sWeb.run(feedsWeb); r.out.dispose?.(); }, opts);
  const usNode = await time(() => sNode.run(feedsNode), opts);

  await sWeb.release(); await sNode.release(); await sOurs.release();
  for (const t of Object.values(feedsOurs)) t.dispose();
  const ratio = usWeb / usOurs;
  const met = c.targetUs !== undefined ? usOurs < c.targetUs : ratio >= c.target;
  rows.push({
    id: c.id,
    case: c.label,
    'onnx-wasm µs': usOurs.toFixed(1),
    'ORT-web µs': usWeb.toFixed(1),
    'ORT-node µs': usNode.toFixed(1),
    'GB/s': c.movedBytes ? (c.movedBytes / (usOurs * 1e3)).toFixed(1) : 'view',
    'vs ORT-web': `${ratio.toFixed(1)}x`,
    target: c.targetUs !== undefined ? `< ${c.targetUs} µs` : `${c.target}x`,
    met: met ? 'yes' : 'NO',
    identical: identical ? 'yes' : 'NO',
  });
  console.error(`${c.id}: onnx-wasm ${usOurs.toFixed(1)} µs, ORT-web ${usWeb.toFixed(1)} µs, ORT-node ${usNode.toFixed(1)} µs`);
}

console.log(`\nonnx-wasm ${info.module} (${info.kernels} kernels); onnxruntime-web ${ortWeb.env.versions.web}, 1 thread; onnxruntime-node ${ortNode.env.versions?.node ?? ''}; Node ${process.version}; ${quick ? 'QUICK (reduced sizes)' : 'full sizes'}`);
// The pthreads build, alone in a child process.
const childArgs = [join(root, 'bench/threads.mjs'), ...(quick ? ['--quick'] : []), ...(only ? ['--only', only.join(',')] : [])];
const threaded = JSON.parse(execFileSync(process.execPath, childArgs, { encoding: 'utf8', maxBuffer: 1 << 20 }));
for (const r of rows) {
  const us = threaded.us[r.id];
  r[`threads µs (${threaded.threads})`] = us === undefined ? '-' : us.toFixed(1);
  r['threads speed-up'] = us === undefined ? '-' : `${(Number(r['onnx-wasm µs']) / us).toFixed(2)}x`;
  delete r.id;
}
console.table(rows);
console.log(`threads column: ${threaded.module}, ${threaded.threads} threads, workers ${threaded.active ? 'ready' : 'NOT ready'}; ${os.cpus().length} cores`);

// Module sizes.
const size = (f) => { const b = readFileSync(f); return { bytes: b.length, gzip: gzipSync(b, { level: 9 }).length }; };
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sizes = [
  ['onnx-wasm .wasm (SIMD)', join(root, 'dist/onnx-wasm.wasm')],
  ['onnx-wasm .wasm (no SIMD)', join(root, 'dist/onnx-wasm-nosimd.wasm')],
  ['onnx-wasm .wasm (threads)', join(root, 'dist/threads/onnx-wasm-threads.wasm')],
  ['onnx-wasm Emscripten glue (ESM)', join(root, 'dist/onnx-wasm.mjs')],
  ['onnx-wasm/web: wrapper + glue, one file', join(root, 'dist/onnx-wasm.web.mjs')],
  ['onnx-wasm/web-threads: wrapper + glue, one file', join(root, 'dist/onnx-wasm-threads.web.mjs')],
  ['onnx-wasm model decoder (js/model/onnx-proto.mjs)', join(root, 'js/model/onnx-proto.mjs')],
  ['onnxruntime-web .wasm', join(dirname(require.resolve('onnxruntime-web')), 'ort-wasm-simd-threaded.wasm')],
];
console.table(sizes.map(([name, f]) => { const s = size(f); return { file: name, size: kb(s.bytes), gzipped: kb(s.gzip) }; }));

// Time to a first result in a fresh Node process: import, module load, (session,) run.
const tiny = benchCases({ small: true }).find((c) => c.id === 'tiny');
const dir = mkdtempSync(join(os.tmpdir(), 'onnx-wasm-bench-'));
writeFileSync(join(dir, 'model.onnx'), tiny.bytes);
writeFileSync(join(dir, 'feeds.json'), JSON.stringify(Object.fromEntries(Object.entries(tiny.feeds).map(([k, f]) => [k, { dims: f.dims, data: Array.from(f.data, (v) => (typeof v === 'bigint' ? String(v) : v)) }]))));
const first = (which) => JSON.parse(execFileSync(process.execPath, [join(root, 'bench/first-result.mjs'), which, dir], { encoding: 'utf8' })).ms;
// The paths taken in turn, each round in another order, so that a slow moment of this shared
// machine falls on all of them (7 in a row each had read 34.0 and 24.3 ms for the threads and
// one-thread paths, which read 28.6 and 28.6 ms taken in turn), 15 rounds (medians of 7 moved by
// 15-35% between two runs 40 minutes apart).
const paths = [['onnx-wasm-runNode', 'onnx-wasm: import, init, runNode'], ['onnx-wasm-runNode-1thread', 'onnx-wasm: import, init({ threads: false }), runNode'], ['onnx-wasm-session', 'onnx-wasm: import, init, InferenceSession.create, run'], ['onnxruntime-web', 'onnxruntime-web: require, InferenceSession.create, run']];
const FIRST_ROUNDS = 15;
/** @type {Map<string, number[]>} */
const firstRuns = new Map(paths.map(([which]) => [which, []]));
for (let round = 0; round < FIRST_ROUNDS; ++round) {
  for (let k = 0; k < paths.length; ++k) {
    const [which] = paths[(k + round) % paths.length];
    firstRuns.get(which).push(first(which));
  }
}
const firsts = paths.map(([which, what]) => ({ path: what, [`first result ms (median of ${FIRST_ROUNDS} fresh processes, the paths in turn)`]: median(firstRuns.get(which)).toFixed(1) }));
rmSync(dir, { recursive: true, force: true });
console.table(firsts);

console.log(`\nCold runs: a fresh process each; first run, the median of runs 2 to 50 (each timed alone), and the steady state of the same session; each figure the median over ${PROCESSES} processes per engine`);
console.table(await coldRuns());
