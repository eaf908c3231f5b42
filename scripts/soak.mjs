#!/usr/bin/env node
// Memory soak: each op (Gather, Flatten, Reshape) and a model run many times, first disposing
// everything explicitly, then relying on garbage collection alone (FinalizationRegistry; gc()
// between rounds), checking that the wasm heap in use comes back to exactly where it started and
// that wasm memory does not grow. Every iteration makes new inputs of a rotating element type
// (strings included), checks the output's values, and every 100th also makes a call that fails
// (an index out of range in the last position), which must leave nothing behind either.
//
//   node --expose-gc scripts/soak.mjs [--runs 100000] [--gc-runs 10000] [--init '{"threads":false}']
//
// Prints each round's counts, time and heap/memory sizes; exits 1 when any round ends with more
// (or less) heap in use than it started with, or wasm memory grew during it. Without --expose-gc
// it runs itself again with it. tests/js/soak.test.mjs runs the same rounds with smaller counts.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  init, InferenceSession, IndexOutOfRangeError, memoryStats, runNode, Tensor,
} from '../js/index.mjs';
import { handMadeModels } from '../tests/support/mutate.mjs';

const tick = () => new Promise((r) => setTimeout(r, 0));

// Collects garbage until the FinalizationRegistry callbacks have freed what they will (the heap
// stops changing, or reaches `target`). Needs --expose-gc.
export async function settle(target = null) {
  let last = -1;
  for (let k = 0; k < 200; ++k) {
    globalThis.gc();
    await tick();
    const h = memoryStats().heapUsed;
    if (h === target || (target === null && h === last && k >= 3)) return h;
    last = h;
    if (k > 20) await new Promise((r) => setTimeout(r, 10));
  }
  return memoryStats().heapUsed;
}

const TYPES = ['float32', 'int64', 'string', 'uint8', 'float16', 'bool'];
// Inputs of `type` with dims [rows, 4] whose k-th element encodes k (strings: 's<k>').
function makeData(type, rows, seed) {
  const n = rows * 4;
  switch (type) {
    case 'float32': return new Tensor(type, Float32Array.from({ length: n }, (_, k) => k + seed), [rows, 4]);
    case 'int64': return new Tensor(type, BigInt64Array.from({ length: n }, (_, k) => BigInt(k + seed)), [rows, 4]);
    case 'string': return new Tensor(type, Array.from({ length: n }, (_, k) => `s${k + seed}-a string long enough to live on the heap`), [rows, 4]);
    case 'uint8': case 'bool': return new Tensor(type, Uint8Array.from({ length: n }, (_, k) => (type === 'bool' ? (k + seed) & 1 : (k + seed) & 255)), [rows, 4]);
    default: return new Tensor(type, Uint16Array.from({ length: n }, (_, k) => (k + seed) & 0xffff), [rows, 4]);
  }
}
const valueAt = (t, k) => (t.type === 'int64' ? Number(t.data[k]) : t.data[k]);

// One iteration of an op: new inputs, a run, a check of the output. Returns the tensors made
// (inputs first, output last) for the caller to dispose or drop.
const OPS = {
  Gather(i) {
    const type = TYPES[i % TYPES.length], rows = 3 + (i % 5);
    const data = makeData(type, rows, i);
    const indices = new Tensor('int64', [BigInt(rows - 1), 0n, -1n], [3]);
    const [out] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [data, indices], { opset: 13 });
    if (out.dims.join() !== '3,4' || String(valueAt(out, 0)) !== String(valueAt(data, (rows - 1) * 4))) throw new Error(`Gather ${type} gave a wrong result at ${i}`);
    return [data, indices, out];
  },
  Flatten(i) {
    const type = TYPES[i % TYPES.length], rows = 2 + (i % 3);
    const data = makeData(type, rows, i);
    const [out] = runNode({ opType: 'Flatten', attributes: { axis: 0 } }, [data]);
    if (out.dims.join() !== `1,${rows * 4}` || String(valueAt(out, 5)) !== String(valueAt(data, 5))) throw new Error(`Flatten ${type} gave a wrong result at ${i}`);
    return [data, out];
  },
  Reshape(i) {
    const type = TYPES[i % TYPES.length], rows = 2 + 2 * (i % 3);
    const data = makeData(type, rows, i);
    const shape = new Tensor('int64', [2n, -1n, 2n], [3]);
    const [out] = runNode({ opType: 'Reshape' }, [data, shape]);
    if (out.dims.join() !== `2,${rows},2` || String(valueAt(out, 3)) !== String(valueAt(data, 3))) throw new Error(`Reshape ${type} gave a wrong result at ${i}`);
    return [data, shape, out];
  },
};

// The same op with an index out of range in the last position: must throw and keep nothing.
function failingGather(i) {
  const data = makeData(TYPES[i % TYPES.length], 3, i);
  const indices = new Tensor('int64', [0n, 1n, 3n], [3]);
  try {
    runNode({ opType: 'Gather' }, [data, indices], { opset: 13 });
  } catch (e) {
    if (!(e instanceof IndexOutOfRangeError)) throw e;
    return [data, indices];
  }
  throw new Error('an index out of range did not throw');
}

// The model: hand/chain of tests/support/mutate.mjs (Gather -> Reshape with a Constant shape ->
// Flatten, symbolic dims). One iteration: a feed, a run, checked outputs.
const chainBytes = handMadeModels().find((m) => m.name === 'hand/chain').bytes;
function modelIteration(session, i) {
  const batch = 1 + (i % 3), seq = 2 + (i % 2);
  const data = new Tensor('float32', Float32Array.from({ length: batch * seq * 4 }, (_, k) => k), [batch, seq, 4]);
  return session.run({ data }).then((out) => {
    // idx = [-1, 0] along axis 1: the first row of the result is the last seq row of batch 0.
    if (out.r.dims.join() !== `${batch},8` || out.r.data[0] !== (seq - 1) * 4 || out.flat.dims.join() !== `1,${batch * 8}`)
      throw new Error(`the model gave a wrong result at ${i}`);
    return [data, out.r, out.flat];
  });
}

// One round: `runs` iterations of `step` (which returns the tensors it made), disposing them
// ('dispose') or dropping them for the garbage collector ('gc'; gc() every 1000 iterations and
// once more at the end). Returns the heap and memory before and after.
export async function round(name, mode, runs, step, extra = {}) {
  const before = mode === 'gc' ? await settle() : memoryStats().heapUsed;
  const memBefore = memoryStats().memory;
  const t0 = performance.now();
  // The loop runs in its own function: once it has returned, nothing of its last iteration can
  // still be reachable from a live frame when the heap is measured.
  const { kept, peak } = await loop(mode, runs, step, extra);
  if (kept) {
    await settle();
    if (String(valueAt(kept.t, 0)) !== kept.first) throw new Error(`${name}: an output changed after its input was collected`);
    kept.t.dispose();
  }
  await extra.close?.();
  const after = mode === 'gc' ? await settle(before) : memoryStats().heapUsed;
  const seconds = (performance.now() - t0) / 1000;
  const memAfter = memoryStats().memory;
  return { name, mode, runs, seconds, heapBefore: before, heapPeak: peak, heapAfter: after, memoryBefore: memBefore, memoryAfter: memAfter, ok: after === before && memAfter === memBefore };
}

// Returns { peak: the most heap in use after an iteration, kept }; in 'gc' mode kept is { t, first }:
// an output kept from the middle of the round (a Reshape or Flatten output shares its input's
// buffer, and that input was dropped) with its first value.
async function loop(mode, runs, step, extra) {
  let kept = null, peak = 0;
  for (let i = 0; i < runs; ++i) {
    const made = await step(i);
    peak = Math.max(peak, memoryStats().heapUsed);
    if (i % 100 === 99 && extra.failing) made.push(...extra.failing(i));
    if (mode === 'dispose') {
      for (const t of made) t.dispose();
    } else {
      if (i % 3 === 0) made[0]?.dispose();            // some explicitly, the rest by collection
      if (i === Math.floor(runs / 2) && made.length) kept = { t: made.at(-1), first: String(valueAt(made.at(-1), 0)) };
      if (i % 1000 === 999) { globalThis.gc(); await tick(); }
    }
  }
  return { kept, peak };
}

// The warm-up before any round: the registry's one-time tables, the model's protobuf runtime,
// the allocator's first chunks.
export async function warmUpSoak() {
  if (typeof globalThis.gc !== 'function') throw new Error('soak needs node --expose-gc');
  for (const op of Object.keys(OPS)) for (let i = 0; i < 12; ++i) for (const t of OPS[op](i)) t.dispose();
  for (const t of failingGather(0)) t.dispose();
  const s = await InferenceSession.create(chainBytes);
  for (let i = 0; i < 6; ++i) for (const t of await modelIteration(s, i)) t.dispose();
  await s.release();
  await settle();
}

// Every round, as [name, mode, runs, () => round result]: each op and the model, with disposal
// (`runs` each) and by collection alone (`gcRuns` each).
export function soakRounds({ runs = 100000, gcRuns = 10000 } = {}) {
  const out = [];
  for (const mode of ['dispose', 'gc']) {
    const n = mode === 'dispose' ? runs : gcRuns;
    for (const op of Object.keys(OPS)) out.push([op, mode, n, () => round(op, mode, n, OPS[op], { failing: failingGather })]);
    // The model: a new session every 1000 runs (released, or in 'gc' mode dropped unreleased for
    // the collector to free its initializers, Constants and prepared nodes).
    out.push(['model', mode, n, () => {
      let session = null;
      const step = async (i) => {
        if (i % 1000 === 0) {
          if (mode === 'dispose') await session?.release();
          session = await InferenceSession.create(chainBytes);
        }
        return modelIteration(session, i);
      };
      return round('model', mode, n, step, {
        close: async () => {
          if (mode === 'dispose') await session.release();
          session = null;
        },
      });
    }]);
  }
  return out;
}

// Every round after the warm-up; `report(result)` after each. Resolves to the results.
export async function soak({ runs, gcRuns, report = () => {} } = {}) {
  await warmUpSoak();
  const results = [];
  for (const [, , , run] of soakRounds({ runs, gcRuns })) {
    const r = await run();
    results.push(r);
    report(r);
  }
  return results;
}

// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = { runs: 100000, gcRuns: 10000, init: '{}' };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--runs') o.runs = Number(argv[++i]);
    else if (argv[i] === '--gc-runs') o.gcRuns = Number(argv[++i]);
    else if (argv[i] === '--init') o.init = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return o;
}

async function main() {
  if (typeof globalThis.gc !== 'function') {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exitCode = r.status ?? 1;
    return;
  }
  const o = parseArgs(process.argv.slice(2));
  const info = await init(JSON.parse(o.init));
  const start = memoryStats();
  console.log(`soak: ${o.runs} runs per op and model with dispose(), ${o.gcRuns} by garbage collection alone; ${info.module}; ` +
    `at start: heap ${start.heapUsed} bytes in use, wasm memory ${start.memory} bytes`);
  const t0 = performance.now();
  const results = await soak({
    runs: o.runs, gcRuns: o.gcRuns,
    report: (r) => console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(8)} ${r.mode.padEnd(8)} ${String(r.runs).padStart(7)} runs ${r.seconds.toFixed(1).padStart(6)} s   ` +
      `heap in use ${r.heapBefore} -> ${r.heapAfter} bytes (peak ${r.heapPeak})   wasm memory ${r.memoryBefore} -> ${r.memoryAfter} bytes`),
  });
  const end = memoryStats();
  const failed = results.filter((r) => !r.ok);
  console.log(`total ${results.reduce((a, r) => a + r.runs, 0)} runs in ${((performance.now() - t0) / 1000).toFixed(1)} s; at end: heap ${end.heapUsed} bytes in use, wasm memory ${end.memory} bytes; ` +
    `${failed.length ? `${failed.length} round(s) FAILED` : 'every round returned to its starting heap'}`);
  process.exitCode = failed.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
