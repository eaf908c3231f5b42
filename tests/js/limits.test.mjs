// Limits: sizes beyond what int64 or wasm32 memory (4 GiB at most) can hold, memory that runs
// out, opsets beyond int32, and graphs of tens of thousands of nodes. Each raises a typed error
// (ShapeError, OutOfMemoryError, OpsetError, ModelError) that names the size asked for; the module
// keeps working afterwards, earlier tensors keep their bytes, and the heap is where it was.
// And results are never partial: an error in the middle of a run (an index out of range in the
// last position) leaves no output, no changed input and the same heap and memory.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema } from 'onnx-buf';
import {
  init, inferShapes, InferenceSession, memoryStats, prepareNode, runNode, Tensor, IndexOutOfRangeError, ModelError,
  OnnxWasmError, OpsetError, OutOfMemoryError, ShapeError, UnsupportedOpError,
} from '../../js/index.mjs';
import { attribute, rawTensor, valueInfo } from '../support/gen-models.mjs';

const info = await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
const GiB = 2 ** 30, MiB = 2 ** 20;

const node = (opType, input, output, attrs = {}, name = `${opType}_${output[0]}`) => create(NodeProtoSchema, {
  opType, input, output, name, attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
});
const model = ({ nodes, inputs = [], outputs, initializers = [], opset = 13n }) => toBinary(ModelProtoSchema, create(ModelProtoSchema, {
  irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(opset) })],
  graph: create(GraphProtoSchema, { name: 'g', node: nodes, input: inputs, output: outputs, initializer: initializers }),
}));
const out = (name, type = 'float32') => valueInfo(name, type, null);
const i64 = (v) => new Tensor('int64', v.map(BigInt), [v.length]);

const digest = (t) => {
  if (t.type === 'string') return JSON.stringify(Array.from(t.data));
  const d = t.data;
  return createHash('sha256').update(new Uint8Array(d.buffer, d.byteOffset, d.byteLength)).digest('hex');
};

// Tensors that live through every case; each case checks their bytes and addresses after it.
const fixtures = {
  small: new Tensor('int32', [7, 8, 9], [3]),
  strings: new Tensor('string', ['kept', 'é'], [2]),
  mibRow: new Tensor('float32', Float32Array.from({ length: MiB / 4 }, (_, k) => k * 0.5), [1, MiB / 4]),
  column: Tensor.alloc('uint8', [MiB, 1]),
  row: Tensor.alloc('uint8', [1, MiB]),
  zeros4097: Tensor.alloc('int64', [4097]),
  empty: Tensor.alloc('float32', [2 ** 40, 2 ** 40, 0]),   // zero elements, dims whose product overflows
  empty2p60: Tensor.alloc('float32', [GiB, GiB, 0]),
  hugeShape: new Tensor('int64', [2n ** 62n, 4n], [2]),
  five: new Tensor('int64', [5n], [1]),
};
fixtures.column.data.forEach((_, k, a) => { a[k] = k * 7; });
const fixtureState = () => Object.fromEntries(Object.entries(fixtures).map(([k, t]) => [k, { digest: digest(t), at: t.type === 'string' ? null : t.data.byteOffset }]));
const fixturesBefore = fixtureState();

function checkStillWorking() {
  assert.deepEqual(fixtureState(), fixturesBefore, 'earlier tensors keep their bytes and addresses');
  const a = i64([2, -3]), b = i64([1]);
  const [g] = runNode({ opType: 'Gather' }, [fixtures.small, a]);
  assert.deepEqual(Array.from(g.data), [9, 7]);
  const [s] = runNode({ opType: 'Gather' }, [fixtures.strings, b]);
  assert.deepEqual(Array.from(s.data), ['é']);
  for (const t of [a, b, g, s]) t.dispose();
}

// The first shape inference allocates the registry's tables once; do it before measuring.
inferShapes({ opType: 'Flatten' }, [{ type: 'float32', dims: [1] }]);
checkStillWorking();

const gatherModel = model({
  nodes: [node('Gather', ['data', 'idx'], ['y'], { axis: 0 })],
  inputs: [valueInfo('data', 'uint8', [1, 'n']), valueInfo('idx', 'int64', ['k'])], outputs: [out('y', 'uint8')],
});

describe(`sizes beyond int64 or wasm32 memory (${info.module}): a typed error naming the size, nothing changed`, () => {
  // [what, the call, Error class, message part naming the size]
  const CASES = [
    ['a shape whose element count overflows int64', () => Tensor.alloc('float32', [2 ** 31, 2 ** 31, 4]), ShapeError,
      'the element count of shape [2147483648, 2147483648, 4] overflows int64'],
    ['a shape whose byte size overflows int64', () => Tensor.alloc('float64', [GiB, 2 * GiB]), OutOfMemoryError,
      'the byte size of shape [1073741824, 2147483648] of double overflows int64 (2305843009213693952 elements)'],
    ['a tensor of exactly 4 GiB (float32)', () => Tensor.alloc('float32', [GiB]), OutOfMemoryError, 'cannot allocate 4294967296 bytes'],
    ['a tensor of 4 GiB (complex128)', () => Tensor.alloc('complex128', [2 ** 28]), OutOfMemoryError, 'cannot allocate 4294967296 bytes'],
    ['a packed tensor one byte over 4 GiB (int2)', () => Tensor.alloc('int2', [2 ** 34 + 4]), OutOfMemoryError, 'cannot allocate 4294967297 bytes'],
    ['a string tensor of 2^30 strings', () => Tensor.alloc('string', [GiB]), OutOfMemoryError, 'cannot allocate 1073741824 strings ('],
    ['a copy in of data whose dims overflow', () => new Tensor('uint8', [1, 2, 3], [2 ** 40, 2 ** 40]), OnnxWasmError, 'needs 1.2089258196146292e+24 Uint8Array entries, got 3'],
    ['a Gather of single elements whose output is over 4 GiB', () => runNode({ opType: 'Gather', attributes: { axis: 1 } }, [fixtures.column, fixtures.zeros4097]),
      OutOfMemoryError, 'cannot allocate 4296015872 bytes'],
    ['a Gather of rows whose output is over 4 GiB', () => runNode({ opType: 'Gather', attributes: { axis: 0 } }, [fixtures.row, fixtures.zeros4097]),
      OutOfMemoryError, 'cannot allocate 4296015872 bytes'],
    ['a Gather of float32 rows whose output is over 4 GiB', () => runNode({ opType: 'Gather' }, [fixtures.mibRow, fixtures.zeros4097]),
      OutOfMemoryError, 'cannot allocate 4296015872 bytes'],
    ['a Gather whose output element count overflows int64', () => runNode({ opType: 'Gather', attributes: { axis: 2 } }, [fixtures.empty, fixtures.five]), ShapeError,
      'the output shape [1099511627776, 1099511627776, 1] has an element count that overflows int64'],
    ['a Flatten whose outer product overflows int64', () => runNode({ opType: 'Flatten', attributes: { axis: 2 } }, [fixtures.empty]), ShapeError,
      'the product of the dimensions of [1099511627776, 1099511627776, 0] overflows int64'],
    ['a Reshape to a shape whose product overflows int64', () => runNode({ opType: 'Reshape' }, [fixtures.row, fixtures.hugeShape]), ShapeError,
      'shape [4611686018427387904, 4] overflows int64'],
    ['a Flatten whose output has a dimension above 2^53 - 1 (JS numbers are not exact there)', () => runNode({ opType: 'Flatten', attributes: { axis: 2 } }, [fixtures.empty2p60]),
      ShapeError, "the output's dimension 0 is about 1152921504606846976, above 2^53 - 1"],
    ['inferShapes of the same', () => inferShapes({ opType: 'Flatten', attributes: { axis: 2 } }, [{ type: 'float32', dims: [GiB, GiB, 0] }]),
      ShapeError, 'Flatten: dimension 0 of the inferred output shape is about 1152921504606846976, above 2^53 - 1'],
    ['inferShapes of a Gather whose output overflows int64', () => inferShapes({ opType: 'Gather' }, [{ type: 'float32', dims: [2 ** 40, 2 ** 40] }, { type: 'int64', dims: [2 ** 40] }]),
      ShapeError, 'the output shape [1099511627776, 1099511627776] has an element count that overflows int64'],
    ['a model run whose Gather output is over 4 GiB', async () => {
      const s = await InferenceSession.create(gatherModel);
      try { return await s.run({ data: fixtures.row, idx: fixtures.zeros4097 }); } finally { await s.release(); }
    }, OutOfMemoryError, 'cannot allocate 4296015872 bytes'],
  ];
  for (const [what, call, Cls, message] of CASES) {
    test(what, async () => {
      const before = memoryStats();
      let thrown = null;
      try { await call(); } catch (e) { thrown = e; }
      assert.ok(thrown instanceof Cls && thrown instanceof OnnxWasmError, `${what}: ${thrown?.stack ?? 'nothing thrown'}`);
      assert.ok(thrown.message.includes(message), `"${thrown.message}" should include "${message}"`);
      assert.deepEqual(memoryStats(), before, 'heap in use and wasm memory unchanged');
      checkStillWorking();
    });
  }
});

describe('results are never partial: an error in the middle of a run leaves no output, no changed input, the same heap', () => {
  const data = new Tensor('float32', Float32Array.from({ length: 1000 }, (_, k) => k), [1000]);
  const table = new Tensor('int64', BigInt64Array.from({ length: 40 * 64 }, (_, k) => BigInt(k)), [40, 64]);
  const names = new Tensor('string', Array.from({ length: 50 }, (_, k) => `name ${k}`), [50]);
  // Many valid indices and a bad one last (large enough for the threads build to split the gather).
  const lastBad = (type, n, size, bad) => {
    const v = Array.from({ length: n }, (_, k) => (k * 7919) % size - (k % 2 ? size : 0));
    v[n - 1] = bad;
    return type === 'int32' ? new Tensor('int32', v, [n]) : new Tensor('int64', v.map(BigInt), [n]);
  };
  const idx32 = lastBad('int32', 100000, 1000, 1000);
  const idx64 = lastBad('int64', 100000, 1000, -1001);
  const rows = lastBad('int64', 5000, 40, 40);
  const strIdx = lastBad('int32', 300, 50, 50);
  const badShape = i64([3, -1]);
  const prepared = prepareNode({ opType: 'Gather' }, { opset: 13 });
  const inputs = [data, table, names, idx32, idx64, rows, strIdx, badShape];
  const snapshot = () => inputs.map(digest);
  const start = snapshot();

  // [what, call, Error class, message]
  const CASES = [
    ['element Gather, int32 indices, last one past the end', () => runNode({ opType: 'Gather' }, [data, idx32]), IndexOutOfRangeError,
      'index 1000 at position 99999 is outside [-1000, 999] for axis 0 of size 1000'],
    ['element Gather, int64 indices, last one below -size', () => runNode({ opType: 'Gather' }, [data, idx64], { opset: 11 }), IndexOutOfRangeError,
      'index -1001 at position 99999 is outside [-1000, 999]'],
    ['row Gather, last index past the end', () => runNode({ opType: 'Gather', attributes: { axis: 0 } }, [table, rows]), IndexOutOfRangeError,
      'index 40 at position 4999 is outside [-40, 39] for axis 0 of size 40'],
    ['string Gather, last index past the end', () => runNode({ opType: 'Gather' }, [names, strIdx]), IndexOutOfRangeError, 'index 50 at position 299'],
    ['the same through a prepared node', () => prepared.run([data, idx32]), IndexOutOfRangeError, 'at position 99999'],
    ['a Reshape whose count does not match', () => runNode({ opType: 'Reshape' }, [table, badShape]), ShapeError, 'do not divide'],
    ['a Flatten with an axis out of range', () => runNode({ opType: 'Flatten', attributes: { axis: 3 } }, [table]), OnnxWasmError, 'axis 3'],
  ];
  for (const [what, call, Cls, message] of CASES) {
    test(what, () => {
      try { call(); } catch { /* the first failure of a new prepared node keeps its message: measure after it */ }
      const before = memoryStats();
      let thrown = null;
      try { call(); } catch (e) { thrown = e; }
      assert.ok(thrown instanceof Cls, `${what}: ${thrown?.stack ?? 'nothing thrown'}`);
      assert.ok(thrown.message.includes(message), `"${thrown.message}" should include "${message}"`);
      assert.deepEqual(memoryStats(), before, 'no output left in the heap, wasm memory unchanged');
      assert.deepEqual(snapshot(), start, 'inputs unchanged');
    });
  }

  test('a model whose last node fails: no output, every earlier output freed, inputs unchanged, heap back after release', async () => {
    // data -> Reshape (a view) -> Gather rows (a new buffer) -> Gather elements with the bad index last.
    const bytes = model({
      nodes: [
        node('Reshape', ['x', 'shape'], ['r']),
        node('Gather', ['r', 'rows'], ['g'], { axis: 0 }),
        node('Flatten', ['g'], ['f'], { axis: 0 }),
        node('Gather', ['f', 'idx'], ['y'], { axis: 1 }),
      ],
      inputs: [valueInfo('x', 'float32', [1000]), valueInfo('idx', 'int32', ['k'])],
      initializers: [rawTensor('shape', 'int64', [2], { bytes: new Uint8Array(BigInt64Array.from([100n, 10n]).buffer) }),
        rawTensor('rows', 'int64', [3], { bytes: new Uint8Array(BigInt64Array.from([99n, 0n, -1n]).buffer) })],
      outputs: [out('r'), out('g'), out('y')],
    });
    const heapStart = memoryStats();
    const s = await InferenceSession.create(bytes);
    const bad = new Tensor('int32', [0, 29, -30, 30], [4]);
    const fail = () => assert.rejects(s.run({ x: data, idx: bad }),
      (e) => e instanceof IndexOutOfRangeError && e.message.includes('index 30 at position 3 is outside [-30, 29] for axis 1 of size 30'));
    await fail();
    const before = memoryStats();
    await fail();
    await fail();
    assert.deepEqual(memoryStats(), before, 'r, g and f were freed, y never made');
    assert.deepEqual(snapshot(), start);
    assert.deepEqual(Array.from(bad.data), [0, 29, -30, 30]);
    const good = new Tensor('int32', [0, 29, -30], [3]);
    const res = await s.run({ x: data, idx: good });
    assert.deepEqual(Object.keys(res), ['r', 'g', 'y']);
    assert.deepEqual(Array.from(res.y.data), [990, 999, 990]);   // f = rows 99, 0, 99 of r, flattened
    for (const t of [...Object.values(res), bad, good]) t.dispose();
    await s.release();
    assert.deepEqual(memoryStats(), heapStart);
  });
});

describe('memory that runs out: OutOfMemoryError naming the bytes; everything else intact; reusable after', () => {
  test('1.5 GiB tensors until wasm memory is full, a Gather and a model run that cannot fit, then all freed', async () => {
    const heapStart = memoryStats().heapUsed;
    // Made while there is room: the inputs of the calls that will not fit.
    const wide = new Tensor('uint8', fixtures.row.data, [1, MiB]);
    const idx = i64(new Array(300).fill(0));
    const s = await InferenceSession.create(gatherModel);
    const big = [];
    const mark = (t, k) => { const d = t.data; for (const at of [0, 12345, d.length >> 1, d.length - 1]) d[at] = (k * 31 + at) & 255; };
    const marksOk = (t, k) => { const d = t.data; return [0, 12345, d.length >> 1, d.length - 1].every((at) => d[at] === ((k * 31 + at) & 255)); };
    let failure = null;
    for (let k = 0; k < 4 && !failure; ++k) {
      try {
        const t = Tensor.alloc('uint8', [1.5 * GiB]);
        mark(t, k);
        big.push(t);
      } catch (e) { failure = e; }
    }
    assert.ok(failure instanceof OutOfMemoryError, String(failure?.stack ?? 'every allocation succeeded'));
    assert.ok(failure.message.includes('cannot allocate 1610612736 bytes'), failure.message);
    assert.ok(big.length >= 1 && big.length <= 2, `${big.length} tensors of 1.5 GiB fitted`);
    // The heap in use is reported above 2 GiB too (mallinfo's int used to wrap it negative).
    assert.ok(memoryStats().heapUsed >= big.length * 1.5 * GiB, `heapUsed ${memoryStats().heapUsed}`);
    const marked = big.length;
    // Fill what is left with 64 MiB blocks, so that the calls below cannot fit either.
    for (;;) { try { big.push(Tensor.alloc('uint8', [64 * MiB])); } catch (e) { assert.ok(e instanceof OutOfMemoryError, e.stack); break; } }
    const full = memoryStats();
    assert.ok(full.memory > 3.5 * GiB, `wasm memory ${full.memory}`);

    assert.throws(() => runNode({ opType: 'Gather' }, [wide, idx]),
      (e) => e instanceof OutOfMemoryError && e.message.includes('cannot allocate 314572800 bytes'));
    assert.deepEqual(memoryStats(), full, 'nothing left from the failed runNode');
    const failRun = () => assert.rejects(s.run({ data: wide, idx }), (e) => e instanceof OutOfMemoryError && e.message.includes('cannot allocate 314572800 bytes'));
    await failRun();   // (the prepared node keeps its first error message)
    const afterFirst = memoryStats();
    await failRun();
    assert.deepEqual(memoryStats(), afterFirst, 'nothing left from the failed model run');
    await s.release();
    wide.dispose(); idx.dispose();

    for (let k = 0; k < marked; ++k) assert.ok(marksOk(big[k], k), `big tensor ${k} kept its bytes`);
    checkStillWorking();
    big.forEach((t) => t.dispose());
    assert.equal(memoryStats().heapUsed, heapStart);
    // The memory is reusable: the same request now succeeds.
    const again = Tensor.alloc('uint8', [1.5 * GiB]);
    again.data[again.data.length - 1] = 1;
    again.dispose();
    assert.equal(memoryStats().heapUsed, heapStart);
    checkStillWorking();
  });
});

describe('opsets beyond int32 are refused, not wrapped around to a supported one', () => {
  // [opset, what the message says]
  for (const opset of [2 ** 31 - 1, 2 ** 31, 2 ** 32 + 13, -(2 ** 31) - 1, 2 ** 53]) {
    test(`opset ${opset}`, async () => {
      const x = new Tensor('float32', [1, 2, 3, 4], [2, 2]);
      const message = `Flatten: opset ${opset} is outside the supported range [1, 28]`;
      const isOpset = (e) => e instanceof OpsetError && e.message === message;
      assert.throws(() => runNode({ opType: 'Flatten' }, [x], { opset }), isOpset);
      assert.throws(() => inferShapes({ opType: 'Flatten' }, [{ type: 'float32', dims: [2, 2] }], { opset }), isOpset);
      assert.throws(() => prepareNode({ opType: 'Flatten' }, { opset }), isOpset);
      if (Number.isSafeInteger(opset)) {
        await assert.rejects(InferenceSession.create(model({ nodes: [node('Flatten', ['x'], ['y'])], inputs: [valueInfo('x', 'float32', [2, 2])], outputs: [out('y')], opset: BigInt(opset) })),
          (e) => e instanceof OpsetError && e.message.includes(`opset ${opset} is outside`));
      }
      // An op the runtime does not have is reported as such, whatever the opset.
      assert.throws(() => runNode({ opType: 'Conv' }, [x], { opset }), UnsupportedOpError);
      x.dispose();
    });
  }
});

describe('graphs of tens of thousands of nodes', () => {
  const chain = (n, cycle = false) => {
    const nodes = [];
    for (let k = 0; k < n; ++k) nodes.push(node('Flatten', [k ? `v${k - 1}` : cycle ? `v${n - 1}` : 'x'], [`v${k}`], { axis: k % 2 }, `n${k}`));
    nodes.reverse();   // listed last to first: the loader must sort them
    return model({ nodes, inputs: cycle ? [] : [valueInfo('x', 'float32', [2, 3])], outputs: [out(`v${n - 1}`)] });
  };
  test('a chain of 30,000 nodes listed in reverse order loads and runs (no recursion limit)', async () => {
    const before = memoryStats().heapUsed;
    const s = await InferenceSession.create(chain(30000));
    assert.equal(s.nodes.length, 30000);
    assert.deepEqual(s.outputMetadata[0].shape, [1, 6]);
    const x = new Tensor('float32', [1, 2, 3, 4, 5, 6], [2, 3]);
    const res = await s.run({ x });
    assert.deepEqual(res.v29999.dims, [1, 6]);
    assert.deepEqual(Array.from(res.v29999.data), [1, 2, 3, 4, 5, 6]);
    res.v29999.dispose(); x.dispose();
    await s.release();
    assert.equal(memoryStats().heapUsed, before);
  });
  test('a cycle through 30,000 nodes is a ModelError with a short message', async () => {
    await assert.rejects(InferenceSession.create(chain(30000, true)),
      (e) => e instanceof ModelError && /the graph has a cycle through node 'n\d+' \(\.\.\. -> /.test(e.message) && e.message.length < 1000);
  });
});

describe('single tensors of 2 to 4 GiB (dlmalloc asks sbrk for less than 2 GiB at once: src/tensor.cpp aligned_block)', () => {
  // In a fresh process, so that nothing else shares its wasm memory: a 2.5 GiB tensor, then a 2 GiB
  // one that cannot fit (OutOfMemoryError naming the bytes), the first keeps its bytes, a Gather
  // still runs, and once freed the memory holds a 1.5 GiB tensor again.
  const script = `
    const { init, Tensor, runNode, OutOfMemoryError } = await import(${JSON.stringify(new URL('../../js/index.mjs', import.meta.url).href)});
    await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
    const GiB = 2 ** 30, r = {};
    const big = Tensor.alloc('uint8', [2.5 * GiB]);
    const d = big.data;
    d[0] = 11; d[d.length - 1] = 22;
    r.allocated = big.dims[0];
    try { Tensor.alloc('uint8', [2 * GiB]); r.second = 'allocated'; } catch (e) { r.second = (e instanceof OutOfMemoryError) + ' ' + e.message; }
    r.kept = [big.data[0], big.data[big.data.length - 1]];
    const [g] = runNode({ opType: 'Gather' }, [new Tensor('int32', [5, 6, 7], [3]), new Tensor('int64', [2n, 0n], [2])]);
    r.gather = Array.from(g.data);
    big.dispose();
    const again = Tensor.alloc('uint8', [1.5 * GiB]);
    r.again = again.dims[0];
    console.log(JSON.stringify(r));
  `;
  test('2.5 GiB allocated; 2 GiB more refused naming its bytes; everything else intact', async () => {
    const { execFileSync } = await import('node:child_process');
    const r = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: process.env }));
    assert.deepEqual(r, {
      allocated: 2.5 * GiB,
      second: 'true cannot allocate 2147483648 bytes for a tensor: memory is exhausted or the size exceeds what wasm32 memory (4 GiB) can hold',
      kept: [11, 22], gather: [7, 5], again: 1.5 * GiB,
    });
  });
});
