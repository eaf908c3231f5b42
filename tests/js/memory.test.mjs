// Memory: outputs stay readable when wasm memory grows, tensors are used in place across calls
// (same address every time), too-large tensors fail cleanly, and nothing leaks. The file runs in
// the build init() picks (the threads build on a multi-core Node), and re-runs itself in child
// processes for the one-thread SIMD build and the non-SIMD build, whose memory is an ArrayBuffer
// that growth detaches (the threads build's is a SharedArrayBuffer).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  init, Tensor, runNode, memoryStats, OutOfMemoryError, OnnxWasmError,
} from '../../js/index.mjs';

const INIT_ENV = 'ONNXWASM_TEST_INIT';
const initOptions = JSON.parse(process.env[INIT_ENV] ?? '{}');
const info = await init(initOptions);
const MB = 1 << 20;

const addressOf = (t) => t.data.byteOffset;
const int64s = (v, dims = [v.length]) => new Tensor('int64', v.map(BigInt), dims);

// Allocates 64 MiB tensors until wasm memory has grown, returning them (the caller disposes).
function growMemory() {
  const before = memoryStats().memory;
  const big = [];
  while (memoryStats().memory === before) {
    big.push(Tensor.alloc('float32', [16 * MB]));
    big.at(-1).data[0] = big.length;    // touch it
  }
  assert.ok(memoryStats().memory > before);
  return big;
}

describe(`memory (${info.module})`, () => {
  // First, while memory is still small, so that the copy itself must grow it.
  test('a view of wasm memory copied into a new tensor survives the growth that the copy causes', () => {
    const src = Tensor.alloc('uint8', [48 * MB]);
    src.data.set([1, 2, 3], 10);
    src.data[48 * MB - 1] = 77;
    const grownFrom = memoryStats().memory;
    const copy = new Tensor('uint8', src.data, src.dims);       // allocating 48 MiB grows memory
    assert.ok(memoryStats().memory > grownFrom, 'the copy grew memory');
    assert.deepEqual(Array.from(copy.data.subarray(10, 13)), [1, 2, 3]);
    assert.equal(copy.data[48 * MB - 1], 77);
    // The same as foreign inputs: copying the first can grow memory before the second is read.
    const idx = new Tensor('int64', [11n, BigInt(48 * MB - 1)], [2]);
    const [g] = runNode({ opType: 'Gather' }, [
      { type: 'uint8', data: copy.data, dims: copy.dims },
      { type: 'int64', data: idx.data, dims: idx.dims },
    ]);
    assert.deepEqual(Array.from(g.data), [2, 77]);
    for (const t of [src, copy, idx, g]) t.dispose();
  });

  test('an output\'s data stays valid when wasm memory grows', () => {
    const t = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
    const [g] = runNode({ opType: 'Gather' }, [t, int64s([2, 0])]);
    const [r] = runNode({ opType: 'Reshape' }, [t, int64s([-1])]);
    const s = new Tensor('string', ['x', 'y'], [2]);
    const oldView = g.data;
    assert.deepEqual(Array.from(oldView), [5, 6, 1, 2]);
    const oldAddress = oldView.byteOffset;
    assert.deepEqual(s.data, ['x', 'y']);
    const big = growMemory();
    // Read again: a fresh view at the same address with the same values.
    assert.deepEqual(Array.from(g.data), [5, 6, 1, 2]);
    assert.equal(g.data.byteOffset, oldAddress);
    assert.deepEqual(Array.from(r.data), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(Array.from(t.data), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(s.data, ['x', 'y']);
    // The old view is either detached (ArrayBuffer memory) or still reads the same memory (shared).
    if (oldView.length === 0) assert.ok(!(oldView.buffer instanceof SharedArrayBuffer));
    else assert.deepEqual(Array.from(oldView), [5, 6, 1, 2]);
    // The big tensors themselves kept what was written into them.
    big.forEach((b, i) => assert.equal(b.data[0], i + 1));
    big.forEach((b) => b.dispose());
    // Writes through a fresh view after growth reach the memory the ops read.
    t.data[0] = 42;
    assert.equal(r.data[0], 42);
    const [g2] = runNode({ opType: 'Gather' }, [t, int64s([0])]);
    assert.deepEqual(Array.from(g2.data), [42, 2]);
  });

  test('a tensor used in many calls is not copied: same address every time', () => {
    const data = new Tensor('float32', Float32Array.from({ length: 1000 }, (_, i) => i), [100, 10]);
    const indices = int64s([99, 0, -1]);
    const shape = int64s([10, -1]);
    const dataAt = addressOf(data), indicesAt = addressOf(indices), shapeAt = addressOf(shape);
    const outputs = [];
    for (let i = 0; i < 200; ++i) {
      const [g] = runNode({ opType: 'Gather' }, [data, indices]);
      const [r] = runNode({ opType: 'Reshape' }, [data, shape]);
      const [f] = runNode({ opType: 'Flatten', attributes: { axis: 0 } }, [r]);
      assert.equal(addressOf(r), dataAt);          // views of the same memory
      assert.equal(addressOf(f), dataAt);
      assert.notEqual(addressOf(g), dataAt);       // Gather writes a new buffer
      assert.deepEqual(Array.from(g.data.subarray(0, 2)), [990, 991]);
      g.dispose();
      f.dispose();
      outputs.push(r);
      if (i === 100) outputs.push(...growMemory());   // growth moves nothing
      assert.equal(addressOf(data), dataAt);
      assert.equal(addressOf(indices), indicesAt);
      assert.equal(addressOf(shape), shapeAt);
    }
    outputs.forEach((t) => t.dispose());
  });

  test('a tensor too large gives OutOfMemoryError naming the bytes, and earlier tensors stay intact', () => {
    const keep = new Tensor('int32', [7, 8, 9], [3]);
    const strings = new Tensor('string', ['kept'], [1]);
    const last = int64s([-1]);
    const at = addressOf(keep);
    const before = memoryStats().heapUsed;
    // [type, dims, bytes named]
    const CASES = [
      ['float32', [2 ** 20, 2 ** 20, 16], '70368744177664 bytes'],
      ['float64', [2 ** 29], '4294967296 bytes'],
      ['complex128', [2 ** 28, 2], '8589934592 bytes'],
      ['int4', [2 ** 33 + 2], '4294967297 bytes'],
      ['string', [2 ** 30], '1073741824 strings'],
    ];
    for (const [type, dims, bytes] of CASES) {
      assert.throws(() => Tensor.alloc(type, dims), (e) => e instanceof OutOfMemoryError && e instanceof OnnxWasmError &&
        e.code === 'ERR_OUT_OF_MEMORY' && e.message.includes(`cannot allocate ${bytes}`), `${type} ${dims}`);
      assert.equal(memoryStats().heapUsed, before);
      assert.equal(addressOf(keep), at);
      assert.deepEqual(Array.from(keep.data), [7, 8, 9]);
      assert.deepEqual(strings.data, ['kept']);
      const [g] = runNode({ opType: 'Gather' }, [keep, last]);
      assert.deepEqual(Array.from(g.data), [9]);
      g.dispose();
    }
  });

  test('disposing frees: many tensors and outputs leave the heap where it was', () => {
    const cols = int64s([5, 6]);
    const before = memoryStats().heapUsed;
    for (let i = 0; i < 300; ++i) {
      const t = new Tensor('float64', new Float64Array(1000), [10, 100]);
      const s = new Tensor('string', ['a long string that is stored on the heap', 'b'], [2]);
      const [g] = runNode({ opType: 'Gather', attributes: { axis: 1 } }, [t, cols]);
      const [r] = runNode({ opType: 'Reshape' }, [t, { type: 'int64', data: [-1n], dims: [1] }]);
      const [gs] = runNode({ opType: 'Gather' }, [s, { type: 'int32', data: [1, 0, 1], dims: [3] }]);
      // The Reshape output keeps the buffer alive after its input is disposed.
      t.dispose();
      assert.equal(r.data[999], 0);
      for (const x of [s, g, r, gs]) x.dispose();
    }
    assert.equal(memoryStats().heapUsed, before);   // (runNode frees its copies of foreign inputs)
  });

  // The other builds, each in a child process (a process loads one module).
  if (!process.env[INIT_ENV]) {
    for (const options of [{ threads: false }, { simd: false }]) {
      test(`the same tests in a child process with init(${JSON.stringify(options)})`, () => {
        const env = { ...process.env, [INIT_ENV]: JSON.stringify(options) };
        delete env.NODE_TEST_CONTEXT;   // run as a plain script, not as a child of this runner
        const child = spawnSync(process.execPath, ['--test-reporter=tap', fileURLToPath(import.meta.url)], { env, encoding: 'utf8', timeout: 60000 });
        assert.equal(child.status, 0, `child failed:\n${child.stdout}\n${child.stderr}`);
        assert.match(child.stdout, /# fail 0/);
        assert.match(child.stdout, /# pass [1-9]/);
        const expected = options.simd === false ? 'onnx-wasm-nosimd' : 'onnx-wasm';
        assert.match(child.stdout, new RegExp(`memory \\(${expected}\\)`));
      });
    }
  }
});
