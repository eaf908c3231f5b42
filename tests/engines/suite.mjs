// The engine suite: one source file, run unchanged by Node, Deno, Bun, Chromium and Firefox against
// the npm tarball installed in an empty folder. `onnx-wasm` is imported as each engine's users do:
// a bare specifier resolved from node_modules (Node, Deno, Bun), or through an import map in a
// page. runSuite() returns a JSON-able result that tests/engines/engines.test.mjs asserts on:
// the module init() chose and why, whether the threads build's workers became ready, and one
// entry per check ({ name, ok, detail }). Every expected value is computed here, in plain JS.
import {
  init, runtime, threadsReady, memoryStats, Tensor, runNode, InferenceSession,
  OnnxWasmError, IndexOutOfRangeError, DisposedError,
} from 'onnx-wasm';
import { LAYOUT } from './model-layout.mjs';

function expect(ok, message) {
  if (!ok) throw new Error(message);
}
const bytesOf = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
// Byte-for-byte equality of two typed arrays; the message names the first differing element.
function expectSameBytes(actual, expected, what) {
  const a = bytesOf(actual), e = bytesOf(expected);
  expect(a.length === e.length, `${what}: ${a.length} bytes, expected ${e.length}`);
  for (let i = 0; i < a.length; ++i) {
    if (a[i] !== e[i]) {
      const k = Math.floor(i / expected.BYTES_PER_ELEMENT);
      throw new Error(`${what}: element ${k} is ${String(actual[k])}, expected ${String(expected[k])}`);
    }
  }
}
const sameDims = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);
function expectDims(t, dims, what) {
  expect(sameDims(t.dims, dims), `${what}: dims [${t.dims}], expected [${dims}]`);
}

// Which engine runs this, for the report.
function engine() {
  if (globalThis.Deno?.version) return `Deno ${globalThis.Deno.version.deno}`;
  if (globalThis.Bun?.version) return `Bun ${globalThis.Bun.version}`;
  if (typeof globalThis.process?.versions?.node === 'string' && typeof window === 'undefined') return `Node ${globalThis.process.versions.node}`;
  return globalThis.navigator?.userAgent ?? 'unknown';
}

// One Gather per kernel of src/kernels/gather.h: data [OUTER, AXIS] gathered on axis 1, so every
// slice is one element and the element kernel of its width runs (x8 ... x128); `lanes` numbers per
// element in `data` (complex128: real and imaginary). 67 indices, negatives among them, cross the
// SIMD kernels' tiles; int32 and int64 indices alternate.
const OUTER = 3, AXIS = 40, COUNT = 67;
const WIDTH_CASES = [
  { kernel: 'x8', type: 'uint8', make: (n) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff) },
  { kernel: 'x16', type: 'int16', make: (n) => Int16Array.from({ length: n }, (_, i) => i * 811 - 30000) },
  // float16 storage bits, all finite: 0x3c00 (1.0) upwards.
  { kernel: 'x16', type: 'float16', make: (n) => Uint16Array.from({ length: n }, (_, i) => 0x3c00 + i * 7) },
  { kernel: 'x32', type: 'float32', make: (n) => Float32Array.from({ length: n }, (_, i) => i * 0.5 - 3.25) },
  { kernel: 'x64', type: 'float64', make: (n) => Float64Array.from({ length: n }, (_, i) => i / 3 - 7) },
  { kernel: 'x64', type: 'int64', make: (n) => BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 0x100000001n - 5n) },
  { kernel: 'x128', type: 'complex128', lanes: 2, make: (n) => Float64Array.from({ length: n }, (_, i) => (i % 2 ? -i : i) / 8) },
];

// The reference: out[o, j] = data[o, normalize(idx[j])] over `inner` consecutive numbers.
function referenceGather(data, outer, axis, inner, idx) {
  const out = new data.constructor(outer * idx.length * inner);
  let w = 0;
  for (let o = 0; o < outer; ++o)
    for (const i of idx) {
      const row = i < 0 ? i + axis : i;
      for (let k = 0; k < inner; ++k) out[w++] = data[(o * axis + row) * inner + k];
    }
  return out;
}
const indexList = (count, axis) => Array.from({ length: count }, (_, j) => ((j * 13 + 5) % axis) - (j % 3 === 0 ? axis : 0));
const indexTensor = (idx, int32) => (int32 ? new Tensor('int32', Int32Array.from(idx), [idx.length])
  : new Tensor('int64', BigInt64Array.from(idx, BigInt), [idx.length]));
const gather = (data, indices, axis, opset = 13) => runNode({ opType: 'Gather', attributes: { axis } }, [data, indices], { opset })[0];

// Tensors made by a check are disposed when it ends, so that no finalizer frees memory in the
// middle of a later check's memoryStats() comparison.
let owned = [];
const own = (t) => { owned.push(t); return t; };

export async function runSuite({ model, weights, modelPath, initOptions } = {}) {
  const checks = [];
  async function check(name, fn) {
    try {
      const detail = await fn();
      checks.push({ name, ok: true, ...(detail === undefined ? {} : { detail }) });
    } catch (e) {
      checks.push({ name, ok: false, detail: `${e?.name ?? 'Error'}: ${e?.message ?? e}\n${e?.stack ?? ''}` });
    } finally {
      for (const t of owned) t.dispose();
      owned = [];
    }
  }

  const info = await init(initOptions);
  // The threads build loads its workers after init() resolves: wait for them.
  await threadsReady();
  const threadsActive = runtime().threadsActive;

  for (const [n, { kernel, type, lanes = 1, make }] of WIDTH_CASES.entries()) {
    await check(`Gather ${kernel}: ${type}`, () => {
      const values = make(OUTER * AXIS * lanes);
      const idx = indexList(COUNT, AXIS);
      const out = own(gather(own(new Tensor(type, values, [OUTER, AXIS])), own(indexTensor(idx, n % 2 === 0)), 1));
      expect(out.type === type, `output type ${out.type}`);
      expectDims(out, [OUTER, COUNT], type);
      expectSameBytes(out.data, referenceGather(values, OUTER, AXIS, lanes, idx), type);
    });
  }

  await check('Gather slices: float32 rows of 9 (slice copies)', () => {
    const rows = 40, cols = 9;
    const values = Float32Array.from({ length: rows * cols }, (_, i) => i * 1.5 - 100);
    const idx = indexList(COUNT, rows);
    const out = own(gather(own(new Tensor('float32', values, [rows, cols])), own(indexTensor(idx, false)), 0));
    expectDims(out, [COUNT, cols], 'rows');
    expectSameBytes(out.data, referenceGather(values, 1, rows, cols, idx), 'rows');
  });

  // 320 KB of output: above the size at which element gathers are split across the threads
  // build's workers (src/ops/gather.cpp, kParallelBytes), so with threads active they do it.
  await check('Gather x32, 320 KB output (split across workers when threads are active)', () => {
    const outer = 2, axis = 40000;
    const values = Float32Array.from({ length: outer * axis }, (_, i) => i % 9973);
    const idx = Array.from({ length: axis }, (_, j) => (j * 7919) % axis - (j % 2 ? axis : 0));
    const out = own(gather(own(new Tensor('float32', values, [outer, axis])), own(indexTensor(idx, true)), 1));
    expectDims(out, [outer, axis], 'large gather');
    expectSameBytes(out.data, referenceGather(values, outer, axis, 1, idx), 'large gather');
    return { threadsActive: runtime().threadsActive };
  });

  await check('Reshape and Flatten share the input\'s memory', () => {
    const values = Float32Array.from({ length: 24 }, (_, i) => i - 11.5);
    const x = own(new Tensor('float32', values, [2, 3, 4]));
    const r = own(runNode({ opType: 'Reshape' }, [x, own(new Tensor('int64', [4n, -1n], [2]))], { opset: 14 })[0]);
    const f = own(runNode({ opType: 'Flatten', attributes: { axis: 1 } }, [x], { opset: 13 })[0]);
    expectDims(r, [4, 6], 'Reshape');
    expectDims(f, [2, 12], 'Flatten');
    expect(r.sharesMemoryWith(x) === true, 'Reshape output: sharesMemoryWith(input) is not true');
    expect(f.sharesMemoryWith(x) === true, 'Flatten output: sharesMemoryWith(input) is not true');
    expectSameBytes(r.data, values, 'Reshape data');
    expectSameBytes(f.data, values, 'Flatten data');
    x.data[5] = 1234.5;   // one buffer: a write through the input shows in both views
    expect(r.data[5] === 1234.5 && f.data[5] === 1234.5, `after writing the input, Reshape has ${r.data[5]}, Flatten ${f.data[5]}`);
  });

  // The table as stored in weights.bin, and the rows the model must return for `ids`.
  const table = () => new Float32Array(new Uint8Array(weights.subarray(LAYOUT.offset, LAYOUT.offset + LAYOUT.rows * LAYOUT.cols * 4)).buffer);
  const expectedRows = (ids) => referenceGather(table(), 1, LAYOUT.rows, LAYOUT.cols, ids);
  async function checkSession(session) {
    expect(session.inputNames.join() === 'ids' && session.outputNames.join() === 'flat',
      `inputs [${session.inputNames}], outputs [${session.outputNames}]`);
    const { flat } = await session.run({ ids: own(new Tensor('int64', LAYOUT.ids.map(BigInt), [LAYOUT.ids.length])) });
    own(flat);
    expectDims(flat, [1, LAYOUT.ids.length * LAYOUT.cols], 'flat');
    expectSameBytes(flat.data, expectedRows(LAYOUT.ids), 'flat');
  }

  await check('InferenceSession with external data from options.externalData', async () => {
    const session = await InferenceSession.create(model, { externalData: { [LAYOUT.file]: weights } });
    try { await checkSession(session); } finally { await session.release(); }
  });

  if (modelPath) {
    await check('InferenceSession from a path, external data read next to the model', async () => {
      const session = await InferenceSession.create(modelPath);
      try { await checkSession(session); } finally { await session.release(); }
    });
  }

  await check('an index out of range: IndexOutOfRangeError (ERR_INDEX), nothing left in memory, then the next call works', () => {
    const values = Float32Array.from({ length: 10 }, (_, i) => i + 0.25);
    const data = own(new Tensor('float32', values, [5, 2]));
    const bad = own(new Tensor('int64', [0n, 5n], [2]));
    const good = own(new Tensor('int64', [4n, -5n], [2]));
    const before = memoryStats().heapUsed;
    let error = null;
    try { own(gather(data, bad, 0)); } catch (e) { error = e; }
    expect(error !== null, 'Gather with index 5 on an axis of 5 did not throw');
    expect(error instanceof IndexOutOfRangeError && error instanceof OnnxWasmError && error instanceof Error,
      `threw ${error?.constructor?.name}: ${error?.message}`);
    expect(error.code === 'ERR_INDEX' && error.name === 'IndexOutOfRangeError', `code ${error.code}, name ${error.name}`);
    expect(memoryStats().heapUsed === before, `heap in use ${before} -> ${memoryStats().heapUsed} bytes after the error`);
    const out = own(gather(data, good, 0));
    expectSameBytes(out.data, referenceGather(values, 1, 5, 2, [4, -5]), 'the call after the error');
    return error.message;
  });

  await check('a model run with an id out of range: IndexOutOfRangeError, then the next run works', async () => {
    const session = await InferenceSession.create(model, { externalData: { [LAYOUT.file]: weights } });
    try {
      let error = null;
      try { await session.run({ ids: own(new Tensor('int64', [0n, BigInt(LAYOUT.badId)], [2])) }); } catch (e) { error = e; }
      expect(error instanceof IndexOutOfRangeError && error.code === 'ERR_INDEX', `got ${error?.constructor?.name} ${error?.code}: ${error?.message}`);
      await checkSession(session);
      return error.message;
    } finally { await session.release(); }
  });

  await check('dispose: memory freed, disposed is true, using the tensor throws DisposedError', () => {
    const before = memoryStats().heapUsed;
    const t = new Tensor('float64', Float64Array.from({ length: 1000 }, (_, i) => i), [10, 100]);
    expect(memoryStats().heapUsed > before, 'a new tensor took no memory');
    expect(t.disposed === false, 'a new tensor says disposed');
    t.dispose();
    expect(t.disposed === true, 'disposed is not true after dispose()');
    expect(memoryStats().heapUsed === before, `heap in use ${before} -> ${memoryStats().heapUsed} bytes after dispose()`);
    const errors = [];
    for (const use of [() => t.data, () => gather(t, own(new Tensor('int64', [0n], [1])), 0)]) {
      try { use(); errors.push(null); } catch (e) { errors.push(e); }
    }
    for (const e of errors)
      expect(e instanceof DisposedError && e instanceof OnnxWasmError && e.code === 'ERR_DISPOSED', `got ${e?.constructor?.name} ${e?.code}: ${e?.message}`);
    return errors[0].message;
  });

  const now = runtime();
  return {
    engine: engine(),
    module: now.module,
    reason: now.reason,
    simd: now.simd,
    kernels: now.kernels,
    threads: now.threads,
    threadsActive,
    loadedFrom: now.loadedFrom,
    crossOriginIsolated: globalThis.crossOriginIsolated ?? null,
    checks,
  };
}
