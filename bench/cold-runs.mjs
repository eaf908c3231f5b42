// Cold runs: pages that run a model once per user action live in the first 50 runs of a fresh
// session, before any JIT has warmed up. For each engine, in a fresh process: the first run, the
// median of runs 2 to 50 (each timed alone), and the steady state (the median after 300 ms of
// warm-up) of the same session, on the tiny Gather (and the embedding lookup). Each figure is the
// median over 7 fresh processes per engine, the engines taken in turn, as the browser benchmark
// takes 7 pages: one process's ratio moved from 2.8x to 3.7x between six runs of the same build.
// Run by `npm run bench` (bench/run.mjs) or alone: node bench/cold-runs.mjs [--json out.json]
// The parent writes each case (model and feeds) to a folder; the child only reads it, so that no
// other JavaScript has run in its process before the session, as in a fresh page: building the
// cases there first (bench/models.mjs) had warmed V8's for-of loops and hid their cold cost.
// Each run is timed as `after(await run())`, one await a run as a caller's loop has and as the
// browser benchmark times its batches (browser-cases.mjs perRun), with no async arrow of the
// harness's own: in V8's interpreter, where this loop runs during runs 2 to 50, that arrow was the
// harness's cost, not the engine's (docs/notes/2026-11-26-cold-runs-at-the-line.md). For the same
// reason the timing loop (timedEach) is first run 200 times on a run that does nothing, before
// the engine is loaded: V8 then compiles the loop before runs 2 to 50, not during them. The
// engine's code is as cold as before.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './timing.mjs';

const ENGINES = ['onnx-wasm', 'onnx-wasm (1 thread)', 'onnxruntime-web'];
const CASES = ['tiny', 'embedding-init'];
export const PROCESSES = 7;   // per engine and case

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

// `count` runs, each timed alone as `after(await run())`: their times in µs.
async function timedEach(count, run, after) {
  const us = new Array(count);
  for (let k = 0; k < count; ++k) {
    const t0 = process.hrtime.bigint();
    after(await run());
    us[k] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return us;
}

async function child(engine, dir) {
  const idle = { out: { dispose() {} } };
  for (let k = 0; k < 4; ++k) await timedEach(50, () => Promise.resolve(idle), (r) => r.out.dispose());
  const c = readCase(dir);
  let run, after;   // each run is `after(await run())`, one await a run as a caller's loop has
  if (engine.startsWith('onnx-wasm')) {
    const o = await import('../dist/index.mjs');
    await o.init(engine.includes('1 thread') ? { threads: false } : {});
    const s = await o.InferenceSession.create(c.bytes);
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)]));
    run = () => s.run(feeds);
    after = (r) => r.out.dispose();
  } else {
    const { createRequire } = await import('node:module');
    const ort = createRequire(import.meta.url)('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    const s = await ort.InferenceSession.create(c.bytes);
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)]));
    run = () => s.run(feeds);
    after = (r) => r.out.dispose?.();
  }
  const us = await timedEach(50, run, after);
  const warm = performance.now();
  while (performance.now() - warm < 300) after(await run());
  const steady = await timedEach(2000, run, after);
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
    const runs = Object.fromEntries(ENGINES.map((e) => [e, []]));
    const failed = {};   // engine: the last line of its error
    for (let k = 0; k < PROCESSES; ++k) {
      for (const engine of ENGINES) {
        if (failed[engine]) continue;
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', engine, dir], { encoding: 'utf8', timeout: 120000 });
        const x = JSON.parse(r.stdout.trim().split('\n').at(-1) || '{}');
        if (x.coldUs) runs[engine].push(x);
        else failed[engine] = r.stderr.trim().split('\n').at(-1) || `exit ${r.status}`;
      }
    }
    for (const engine of ENGINES) {
      if (failed[engine]) {
        rows.push({ case: id, engine, 'cold / steady': failed[engine] });
        continue;
      }
      const m = (key) => median(runs[engine].map((x) => x[key]));
      rows.push({ case: id, engine, processes: runs[engine].length, 'first run µs': m('firstUs').toFixed(1), 'runs 2-50, median µs': m('coldUs').toFixed(2),
        'steady µs': m('steadyUs').toFixed(2), 'cold / steady': `${(m('coldUs') / m('steadyUs')).toFixed(1)}x` });
    }
  }
  rmSync(root, { recursive: true, force: true });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await coldRuns();
  console.log(`\nCold runs: a fresh process each; first run, the median of runs 2 to 50, and the steady state of the same session (each the median over ${PROCESSES} processes per engine)`);
  console.table(rows);
  const i = process.argv.indexOf('--json');
  if (i > 0) writeFileSync(process.argv[i + 1], JSON.stringify(rows, null, 1));
}
