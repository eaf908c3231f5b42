// The cost of crossing the wasm boundary (bindings/embind.cpp), per call, in one Node process:
// Embind functions with bindings/embind-invoker.js's invokers (or 3.1.6's own DYNAMIC_EXECUTION=0
// ones, in a module built with -DONNXWASM_FAST_INVOKERS=OFF), a plain wasm export for scale, and
// the calls of a tiny Gather run made with integers (the per-run path) or with vals (the checked
// calls). A benchmark: nothing asserts a time.
//   node bench/boundary.mjs [path/to/onnx-wasm.cjs]   (default: dist/onnx-wasm.cjs)
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { median } from './timing.mjs';

const require = createRequire(import.meta.url);
const gluePath = resolve(process.argv[2] ?? new URL('../dist/onnx-wasm.cjs', import.meta.url).pathname);
const m = await require(gluePath)({ wasmBinary: readFileSync(gluePath.replace(/\.c?js$/, '.wasm')) });

// ns per call: the median of 15 batches of `n` calls, after one batch of warm-up.
function perCall(fn, n = 200000) {
  const batches = [];
  for (let b = 0; b < 16; ++b) {
    const t0 = performance.now();
    for (let i = 0; i < n; ++i) fn();
    if (b > 0) batches.push(((performance.now() - t0) * 1e6) / n);
  }
  return median(batches);
}

const handle = (r) => { if (typeof r !== 'number') throw new Error(`binding failed: ${r.code} ${r.message}`); return r; };
const data = handle(m.tensorCreate(1, [10, 10], true));
const indices = handle(m.tensorCreate(7, [3], true));
const { node } = m.prepareNode('', 'Gather', 13, [{ name: 'axis', kind: 'INT', value: 0 }]);
// A prepared node reads its input handles from the binding's input area (js/prepared.mjs).
new Uint32Array(m.HEAPU8.buffer, m.inputsAddress(2), 2).set([data, indices]);

const rows = [
  ['plain wasm export, no argument (malloc(0), for scale)', () => m._free(m._malloc(0))],
  ['Embind, 1 handle in, integer out (tensorInfoAddress)', () => m.tensorInfoAddress(data)],
  ['Embind, no argument, bool out (threadsActive)', () => m.threadsActive()],
  ['Embind, 2 handles in, bool out (tensorSharesBuffer)', () => m.tensorSharesBuffer(data, indices)],
  ['Embind, val { type, dims } out (tensorInfo)', () => m.tensorInfo(data)],
  ['Embind, typed_memory_view out (tensorData)', () => m.tensorData(data)],
  ['tiny Gather run with integers: nodeRunHandle (info written) + tensorDelete', () => m.tensorDelete(m.nodeRunHandle(node, 2))],
  ['tiny Gather run with vals: nodeRun + tensorInfo + tensorDelete', () => {
    const h = m.nodeRun(node, 2);
    m.tensorInfo(h);
    m.tensorDelete(h);
  }],
  ['a tensor made from an array of dims: tensorCreate (val) + tensorDelete', () => m.tensorDelete(m.tensorCreate(7, [3], true))],
  ['a tensor made from dims as numbers: tensorCreateHandle + tensorDelete', () => m.tensorDelete(m.tensorCreateHandle(7, 1, 1, 3, 0, 0, 0))],
].map(([call, fn]) => ({ call, 'ns per call': perCall(fn).toFixed(1) }));
console.log(`${gluePath}; Node ${process.version}`);
console.table(rows);
