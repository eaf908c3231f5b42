// InferenceSession: graphs of several nodes in any order, Constants of every form, opset
// selection, symbolic shape inference through the graph, feed checks, initializer overrides,
// external data, the onnxruntime-web feed form, zero-copy Reshape/Flatten, and every malformed
// model the issue names. Models are built here with onnx-buf; expected values are hand-written.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProtoSchema, GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema, TensorProtoSchema,
} from 'onnx-buf';
import { Tensor as OrtTensor } from 'onnxruntime-common';
import {
  init, InferenceSession, Tensor, memoryStats, ModelError, UnsupportedOpError, InvalidArgumentError,
  IndexOutOfRangeError, ShapeError, TypeConstraintError, DisposedError, runNode, opVersions,
} from '../../js/index.mjs';
import { attribute, rawTensor, typedTensor, valueInfo } from '../support/gen-models.mjs';
import { gatherModel, tableBytes } from '../support/external-models.mjs';

await init({ threads: false });
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-session-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const i64 = (vals) => ({ bytes: new Uint8Array(BigInt64Array.from(vals.map(BigInt)).buffer) });
const f32 = (vals) => ({ bytes: new Uint8Array(Float32Array.from(vals).buffer) });
const node = (opType, input, output, attrs = {}, extra = {}) => create(NodeProtoSchema, {
  opType, input, output, name: extra.name ?? `${opType}_${output[0]}`, domain: extra.domain ?? '',
  attribute: Object.entries(attrs).map(([k, v]) => (v && v.$typeName ? v : attribute(k, v))),
});
function modelBytes({ nodes, inputs = [], outputs, initializers = [], opset = 13, opsets, valueInfos = [] }) {
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: (opsets ?? [['', opset]]).map(([domain, version]) => create(OperatorSetIdProtoSchema, { domain, version: BigInt(version) })),
    graph: create(GraphProtoSchema, { name: 'g', node: nodes, input: inputs, output: outputs, initializer: initializers, valueInfo: valueInfos }),
  }));
}
const outInfo = (name, type = 'float32') => valueInfo(name, type, null);

// data [batch, seq, 4] -> Gather(axis 1, idx [2]) -> [batch, 2, 4] -> Reshape(shape const [0, -1])
// -> [batch, 8] -> Flatten(axis 0) -> [1, batch*8]; nodes listed out of order.
const chain = modelBytes({
  nodes: [
    node('Flatten', ['r'], ['flat'], { axis: 0 }),
    node('Reshape', ['g', 'shape'], ['r']),
    node('Constant', [], ['shape'], { value: create(AttributeProtoSchema, { name: 'value', type: 4, t: rawTensor('', 'int64', [2], i64([0, -1])) }) }),
    node('Gather', ['data', 'idx'], ['g'], { axis: 1 }),
  ],
  inputs: [valueInfo('data', 'float32', ['batch', 'seq', 4])],
  initializers: [rawTensor('idx', 'int64', [2], i64([-1, 0]))],
  outputs: [outInfo('r'), outInfo('flat')],
});

describe('graphs', () => {
  test('nodes in any order run in topological order; symbols flow through every node', async () => {
    const s = await InferenceSession.create(chain);
    assert.deepEqual(s.inputNames, ['data']);
    assert.deepEqual(s.outputNames, ['r', 'flat']);
    assert.deepEqual(s.inputMetadata, [{ name: 'data', isTensor: true, type: 'float32', shape: ['batch', 'seq', 4] }]);
    assert.deepEqual(s.outputMetadata.map((o) => o.shape), [['batch', 8], [1, null]]);
    assert.deepEqual(s.nodes.map((n) => n.opType), ['Gather', 'Constant', 'Reshape', 'Flatten']);
    const data = new Tensor('float32', Float32Array.from({ length: 2 * 3 * 4 }, (_, i) => i), [2, 3, 4]);
    const out = await s.run({ data });
    assert.deepEqual(out.r.dims, [2, 8]);
    assert.deepEqual(Array.from(out.r.data), [8, 9, 10, 11, 0, 1, 2, 3, 20, 21, 22, 23, 12, 13, 14, 15]);
    assert.deepEqual(out.flat.dims, [1, 16]);
    assert.ok(out.flat.sharesMemoryWith(out.r), 'Flatten of a Reshape is a view');
    for (const t of [data, out.r, out.flat]) t.dispose();
    await s.release();
  });

  test('runs in a row follow each feed: a Reshape whose shape feed keeps its dims but not its values, a Gather whose data changes dims', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Reshape', ['x', 'shape'], ['y']), node('Gather', ['y', 'i'], ['z'], { axis: 1 })],
      inputs: [valueInfo('x', 'float32', [6]), valueInfo('shape', 'int64', [2]), valueInfo('i', 'int64', [1])],
      outputs: [outInfo('z')],
    }));
    const x = new Tensor('float32', Float32Array.from({ length: 6 }, (_, k) => k), [6]);
    const i = new Tensor('int64', [1n], [1]);
    const cases = [[[2, 3], [2, 1], [1, 4]], [[3, 2], [3, 1], [1, 3, 5]], [[3, 2], [3, 1], [1, 3, 5]], [[1, 6], [1, 1], [1]], [[2, 3], [2, 1], [1, 4]]];
    for (const [shape, dims, values] of cases) {
      const shapeFeed = new Tensor('int64', shape.map(BigInt), [2]);
      const { z } = await s.run({ x, shape: shapeFeed, i });
      assert.deepEqual([z.dims, Array.from(z.data)], [dims, values], `shape [${shape}]`);
      z.dispose();
      shapeFeed.dispose();
    }
    await assert.rejects(s.run({ x, shape: new Tensor('int64', [4n, 2n], [2]), i }), /cannot reshape \[6\] to \[4, 2\]/);
    const { z } = await s.run({ x, shape: new Tensor('int64', [2n, 3n], [2]), i });
    assert.deepEqual(Array.from(z.data), [1, 4], 'after the error');
    for (const t of [x, i, z]) t.dispose();
    await s.release();
  });

  test('Reshape and Flatten through run() are views of the fed tensor (no copy)', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Reshape', ['x', 'shape'], ['y']), node('Flatten', ['x'], ['z'], { axis: 2 })],
      inputs: [valueInfo('x', 'float32', [64, 32, 32])], initializers: [rawTensor('shape', 'int64', [2], i64([-1, 32]))],
      outputs: [outInfo('y'), outInfo('z')],
    }));
    const x = new Tensor('float32', new Float32Array(64 * 32 * 32), [64, 32, 32]);
    const { y, z } = await s.run({ x });
    assert.ok(y.sharesMemoryWith(x) && z.sharesMemoryWith(x));
    assert.equal(y.data.byteOffset, x.data.byteOffset);
    assert.deepEqual([y.dims, z.dims], [[2048, 32], [2048, 32]]);
    for (const t of [x, y, z]) t.dispose();
    await s.release();
  });

  test('the default-domain opset selects each op version (Reshape-1 attribute at opset 1..4)', async () => {
    const bytes = (opset, opsets) => modelBytes({
      nodes: [node('Reshape', ['x'], ['y'], { shape: [3, 2] })], opset, opsets,
      inputs: [valueInfo('x', 'float32', [2, 3])], outputs: [outInfo('y')],
    });
    const s = await InferenceSession.create(bytes(4, [['ai.onnx.ml', 3], ['', 4]]));
    assert.equal(s.opset, 4);
    assert.deepEqual(s.outputMetadata[0].shape, [3, 2]);
    await s.release();
    // At opset 5 Reshape takes its shape as an input: the attribute is refused when loading.
    await assert.rejects(InferenceSession.create(bytes(5)), (e) => /node 'Reshape_y' \(Reshape\): .*Reshape-5/.test(e.message));
  });

  test('Constant in every form', async () => {
    const forms = [
      [{ value_float: create(AttributeProtoSchema, { name: 'value_float', type: 1, f: 2.5 }) }, 'float32', [], [2.5]],
      [{ value_floats: create(AttributeProtoSchema, { name: 'value_floats', type: 6, floats: [1, 2] }) }, 'float32', [2], [1, 2]],
      [{ value_int: 7 }, 'int64', [], [7n]],
      [{ value_ints: [3, -1] }, 'int64', [2], [3n, -1n]],
      [{ value_string: create(AttributeProtoSchema, { name: 'value_string', type: 3, s: new TextEncoder().encode('hé') }) }, 'string', [], ['hé']],
      [{ value_strings: create(AttributeProtoSchema, { name: 'value_strings', type: 8, strings: ['a', 'b'].map((x) => new TextEncoder().encode(x)) }) }, 'string', [2], ['a', 'b']],
      [{ value: create(AttributeProtoSchema, { name: 'value', type: 4, t: typedTensor('', 'float16', [2], { bytes: new Uint8Array(Uint16Array.from([0x3c00, 0xc000]).buffer) }) }) }, 'float16', [2], [0x3c00, 0xc000]],
    ];
    for (const [attrs, type, dims, values] of forms) {
      const s = await InferenceSession.create(modelBytes({
        nodes: [node('Constant', [], ['c'], attrs), node('Flatten', ['c'], ['y'], { axis: 0 })],
        outputs: [outInfo('y', type)],
      }));
      const { y } = await s.run({});
      assert.equal(y.type, type, Object.keys(attrs)[0]);
      assert.deepEqual(y.dims, [1, values.length === 1 && dims.length === 0 ? 1 : values.length]);
      assert.deepEqual(Array.from(y.data), values);
      y.dispose();
      await s.release();
    }
  });

  test('an initializer that is also a graph input can be overridden by a feed', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Gather', ['data', 'idx'], ['y'])],
      inputs: [valueInfo('data', 'float32', [3]), valueInfo('idx', 'int64', [1])],
      initializers: [rawTensor('idx', 'int64', [1], i64([2]))], outputs: [outInfo('y')],
    }));
    assert.deepEqual(s.inputNames, ['data']);
    const data = new Tensor('float32', [10, 20, 30], [3]);
    const a = await s.run({ data });
    const b = await s.run({ data, idx: new Tensor('int64', [0n], [1]) });
    assert.deepEqual([Array.from(a.y.data), Array.from(b.y.data)], [[30], [10]]);
    await s.release();
  });

  test('feeds may be onnxruntime-web Tensors or { type, data, dims }; outputs that are graph inputs are copies', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Gather', ['x', 'i'], ['y'], { axis: 0 })],
      inputs: [valueInfo('x', 'int32', ['n']), valueInfo('i', 'int32', [2])], outputs: [outInfo('y', 'int32'), valueInfo('x', 'int32', ['n'])],
    }));
    const out = await s.run({ x: new OrtTensor('int32', Int32Array.from([5, 6, 7]), [3]), i: { type: 'int32', data: Int32Array.from([2, -3]), dims: [2] } });
    assert.deepEqual(Array.from(out.y.data), [7, 5]);
    assert.deepEqual(Array.from(out.x.data), [5, 6, 7]);
    assert.ok(out.x instanceof Tensor);
    await s.release();
    assert.deepEqual(Array.from(out.x.data), [5, 6, 7], 'outputs outlive the session');
  });

  test('external data: read next to the model in Node, or from options.externalData', async () => {
    const dir = join(tmp, 'ext');
    mkdirSync(dir, { recursive: true });
    const weights = new Float32Array([0, 0, 1.5, 2.5, 3.5, 4.5]);
    writeFileSync(join(dir, 'w.bin'), new Uint8Array(weights.buffer));
    const ext = create(TensorProtoSchema, {
      name: 'w', dataType: 1, dims: [2n, 2n], dataLocation: 1,
      externalData: [['location', 'w.bin'], ['offset', '8'], ['length', '16']].map(([key, value]) => create(StringStringEntryProtoSchema, { key, value })),
    });
    const bytes = modelBytes({
      nodes: [node('Gather', ['w', 'i'], ['y'])], inputs: [valueInfo('i', 'int64', [1])],
      initializers: [ext], outputs: [outInfo('y')],
    });
    writeFileSync(join(dir, 'model.onnx'), bytes);
    const i = new Tensor('int64', [1n], [1]);
    for (const s of [await InferenceSession.create(join(dir, 'model.onnx')),
      await InferenceSession.create(bytes, { externalData: { 'w.bin': readFileSync(join(dir, 'w.bin')) } })]) {
      const { y } = await s.run({ i });
      assert.deepEqual(Array.from(y.data), [3.5, 4.5]);
      await s.release();
    }
    await assert.rejects(InferenceSession.create(bytes), (e) => e instanceof ModelError && /external file 'w.bin'/.test(e.message));
  });

  test('options.externalData: own entries only, each bytes, a Blob or a URL', async () => {
    const at = (location) => modelBytes({
      nodes: [node('Flatten', ['w'], ['y'])], outputs: [outInfo('y')],
      initializers: [create(TensorProtoSchema, { name: 'w', dataType: 1, dims: [2n], dataLocation: 1, externalData: [create(StringStringEntryProtoSchema, { key: 'location', value: location })] })],
    });
    for (const location of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      await assert.rejects(InferenceSession.create(at(location), { externalData: {} }), (e) => e instanceof ModelError && e.message.includes(`external file '${location}'`), location);
    await assert.rejects(InferenceSession.create(at('w.bin'), { externalData: { 'w.bin': [1, 2, 3, 4, 5, 6, 7, 8] } }),
      (e) => e instanceof InvalidArgumentError && /options.externalData\['w.bin'\] must be a Uint8Array, ArrayBuffer, Blob, File or URL string, got Array/.test(e.message));
    const s = await InferenceSession.create(at('constructor'), { externalData: { constructor: new Uint8Array(new Float32Array([1, 2]).buffer) } });
    assert.deepEqual(Array.from((await s.run({})).y.data), [1, 2]);
    await s.release();
  });
});

// x.view(x.size(0), -1) as torch exports it: Shape -> Gather(0) -> Unsqueeze -> Concat(, [-1]) ->
// Reshape. With a dynamic batch the shape nodes are kept per distinct dims (plan.mjs, memo); with
// fixed dims their values are known at create() and made once (fold.mjs).
const viewModel = (dims) => modelBytes({
  nodes: [
    node('Shape', ['x'], ['s']),
    node('Gather', ['s', 'zero'], ['b'], { axis: 0 }),
    node('Unsqueeze', ['b', 'axes'], ['b1']),
    node('Concat', ['b1', 'minus1'], ['shape'], { axis: 0 }),
    node('Reshape', ['x', 'shape'], ['y']),
  ],
  inputs: [valueInfo('x', 'float32', dims)],
  initializers: [rawTensor('zero', 'int64', [], i64([0])), rawTensor('axes', 'int64', [1], i64([0])), rawTensor('minus1', 'int64', [1], i64([-1]))],
  outputs: [outInfo('y')],
});

describe('shape subgraphs', () => {
  test('dynamic batch: right for every batch, in any order, the shape values kept per distinct dims (bounded), fetched as copies', async () => {
    const s = await InferenceSession.create(viewModel(['batch', 3, 4]));
    // Inference carries the shape's values as dims ('batch', then [batch, -1]) and solves the -1.
    assert.deepEqual(s.outputMetadata[0].shape, ['batch', 12]);
    assert.deepEqual(s.valueInfo('shape')?.dims, [2]);
    const feed = (b) => new Tensor('float32', Float32Array.from({ length: b * 12 }, (_, k) => k), [b, 3, 4]);
    const heapAfter = [];
    for (const b of [2, 5, 2, 1, 5, 3, ...Array.from({ length: 34 }, (_, k) => k + 4), 2, 5]) {
      const x = feed(b);
      const { y } = await s.run({ x });
      assert.deepEqual(y.dims, [b, 12], `batch ${b}`);
      assert.deepEqual(Array.from(y.data), Array.from(x.data), `batch ${b}`);
      y.dispose();
      x.dispose();
      heapAfter.push(memoryStats().heapUsed);
    }
    // 37 distinct batches, at most 8 kept per node: the heap grows by about 400 bytes for each of
    // the first ones (four small tensors), then stays (within the allocator's rounding).
    assert.ok(heapAfter.at(-1) - heapAfter[12] < 1024, `heap used ${heapAfter.join(', ')}`);
    // A fetched shape value is the caller's copy: disposing it leaves the kept one intact.
    const x = feed(3);
    const out = await s.run({ x }, ['shape', 'y']);
    assert.deepEqual(Array.from(out.shape.data), [3n, -1n]);
    out.shape.dispose();
    out.y.dispose();
    const again = await s.run({ x }, ['shape']);
    assert.deepEqual(Array.from(again.shape.data), [3n, -1n]);
    again.shape.dispose();
    // A feed whose batch does not divide: the Reshape's error, then the session still works.
    await assert.rejects(s.run({ x: new Tensor('float32', new Float32Array(5), [1, 5, 1]) }), InvalidArgumentError);
    assert.deepEqual((await s.run({ x })).y.dims, [3, 12]);
    x.dispose();
    await s.release();
  });

  test('fixed dims: the shape values are known at create() and the shape nodes do not run', async () => {
    const s = await InferenceSession.create(viewModel([2, 3, 4]));
    assert.deepEqual(s.outputMetadata[0].shape, [2, 12]);
    const x = new Tensor('float32', Float32Array.from({ length: 24 }, (_, k) => k), [2, 3, 4]);
    const out = await s.run({ x }, ['y', 'shape', 's']);
    assert.deepEqual(out.y.dims, [2, 12]);
    assert.deepEqual(Array.from(out.y.data), Array.from(x.data));
    assert.deepEqual([Array.from(out.shape.data), Array.from(out.s.data)], [[2n, -1n], [2n, 3n, 4n]]);
    assert.equal(s.valueInfo('shape')?.storage, 'memory', 'a session tensor, made at create()');
    // One node is left to run: a run of the Reshape takes the one-node path and returns a view of x.
    const { y } = await s.run({ x });
    const again = await s.run({ x });
    assert.ok(again.y.sharesMemoryWith(x));
    for (const t of [x, y, again.y, ...Object.values(out)]) t.dispose();
    await s.release();
  });
});

describe('feeds that contradict the graph fail before any kernel runs', () => {
  const bytes = modelBytes({
    nodes: [node('Gather', ['a', 'i'], ['y'], { axis: 1 })],
    inputs: [valueInfo('a', 'float32', ['batch', 4]), valueInfo('i', 'int64', ['batch'])], outputs: [outInfo('y')],
  });
  const cases = [
    ['missing input', () => ({ a: new Tensor('float32', new Float32Array(8), [2, 4]) }), /input 'i' is missing from the feeds \(expected int64 \[batch\]\)/],
    ['wrong type', () => ({ a: new Tensor('float64', new Float64Array(8), [2, 4]), i: new Tensor('int64', [0n, 0n], [2]) }), /input 'a' must be float32, got float64/],
    ['wrong rank', () => ({ a: new Tensor('float32', new Float32Array(8), [8]), i: new Tensor('int64', [0n, 0n], [2]) }), /input 'a' must have rank 2 \[batch, 4\], got dims \[8\]/],
    ['wrong fixed dimension', () => ({ a: new Tensor('float32', new Float32Array(6), [2, 3]), i: new Tensor('int64', [0n, 0n], [2]) }), /input 'a' dimension 1 must be 4 \[batch, 4\], got 3/],
    ['symbol with two values', () => ({ a: new Tensor('float32', new Float32Array(8), [2, 4]), i: new Tensor('int64', [0n], [1]) }), /input 'i' dimension 0 \('batch'\) is 1, but 'batch' is 2 in another input/],
    ['unknown feed', () => ({ a: new Tensor('float32', new Float32Array(8), [2, 4]), i: new Tensor('int64', [0n, 0n], [2]), z: new Tensor('int64', [0n], [1]) }), /feed 'z' is not an input of this model; inputs: a, i/],
  ];
  for (const [what, feeds, message] of cases) {
    test(what, async () => {
      const s = await InferenceSession.create(bytes);
      const before = memoryStats().heapUsed;
      const f = feeds();
      await assert.rejects(s.run(f), (e) => e instanceof InvalidArgumentError && message.test(e.message));
      for (const t of Object.values(f)) t.dispose();
      assert.equal(memoryStats().heapUsed, before, 'nothing left behind');
      await s.release();
    });
  }
  test('a kernel error (index in the last position) leaves no output and the session keeps working', async () => {
    const s = await InferenceSession.create(bytes);
    const a = new Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i), [2, 4]);
    const bad = new Tensor('int64', [1n, 4n], [2]);
    const fail = () => assert.rejects(s.run({ a, i: bad }),
      (e) => e instanceof IndexOutOfRangeError && /index 4 at position 1 is outside \[-4, 3\] for axis 1 of size 4/.test(e.message));
    await fail();   // the prepared node keeps its last error message: measure after the first
    const before = memoryStats().heapUsed;
    await fail();
    assert.equal(memoryStats().heapUsed, before, 'no output left allocated');
    assert.deepEqual(Array.from(a.data), [0, 1, 2, 3, 4, 5, 6, 7], 'input unchanged');
    const { y } = await s.run({ a, i: new Tensor('int64', [3n, -4n], [2]) });
    assert.deepEqual(Array.from(y.data), [3, 0, 7, 4]);
    await s.release();
  });
  test('every run checks its feeds, also after runs that passed (fixed dims)', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Gather', ['a', 'i'], ['y'], { axis: 1 })],
      inputs: [valueInfo('a', 'float32', [2, 4]), valueInfo('i', 'int64', [2])], outputs: [outInfo('y')],
    }));
    const a = new Tensor('float32', new Float32Array(8), [2, 4]), i = new Tensor('int64', [0n, 0n], [2]);
    for (let k = 0; k < 3; ++k) (await s.run({ a, i })).y.dispose();
    const wrong = new Tensor('float32', new Float32Array(6), [2, 3]), short = new Tensor('int64', [0n], [1]);
    const before = memoryStats().heapUsed;
    await assert.rejects(s.run({ a: wrong, i }), /input 'a' dimension 1 must be 4 \[2, 4\], got 3/);
    await assert.rejects(s.run({ a, i: short }), /input 'i' dimension 0 must be 2 \[2\], got 1/);
    await assert.rejects(s.run({ a: i, i: a }), /input 'a' must be float32, got int64/);
    assert.equal(memoryStats().heapUsed, before, 'nothing left behind');
    const { y } = await s.run({ a, i });
    assert.deepEqual(y.dims, [2, 2]);
    y.dispose();
    // A feed that passed this session's check is checked again by another session's input.
    const other = await InferenceSession.create(modelBytes({
      nodes: [node('Gather', ['a', 'i'], ['y'], { axis: 1 })],
      inputs: [valueInfo('a', 'float32', [2, 3]), valueInfo('i', 'int64', [2])], outputs: [outInfo('y')],
    }));
    await assert.rejects(other.run({ a, i }), /input 'a' dimension 1 must be 3 \[2, 3\], got 4/);
    (await other.run({ a: wrong, i })).y.dispose();
    await assert.rejects(s.run({ a: wrong, i }), /input 'a' dimension 1 must be 4 \[2, 4\], got 3/, 'and the first session still checks');
    await other.release();
    a.dispose();
    await assert.rejects(s.run({ a, i }), DisposedError, 'a feed checked before and disposed since');
    for (const t of [i, wrong, short]) t.dispose();
    await s.release();
  });
  test('released sessions refuse to run', async () => {
    const s = await InferenceSession.create(bytes);
    await s.release();
    await assert.rejects(s.run({}), /released/);
  });
});

describe('malformed models get a clear error and never a crash', () => {
  const good = chain;
  const expectModelError = (bytes, pattern, Cls = ModelError) =>
    assert.rejects(InferenceSession.create(bytes), (e) => e instanceof Cls && pattern.test(e.message), String(pattern));

  test('truncated at every length and random bytes', async () => {
    let errors = 0, loaded = 0;
    for (let n = 0; n < good.length; n += 3) {
      try { const s = await InferenceSession.create(good.subarray(0, n)); loaded++; await s.release(); } catch (e) {
        assert.ok(e instanceof ModelError || e instanceof UnsupportedOpError || e.code, `truncated at ${n}: ${e.stack}`);
        errors++;
      }
    }
    assert.ok(errors > 0);
    let x = 12345;
    for (let k = 0; k < 200; ++k) {
      const bytes = Uint8Array.from({ length: 1 + (k * 37) % 300 }, () => { x = (x * 1103515245 + 12345) % 2147483648; return x & 255; });
      try { const s = await InferenceSession.create(bytes); await s.release(); } catch (e) {
        assert.ok(typeof e.code === 'string' && e.code.startsWith('ERR_'), `random model ${k}: ${e.stack}`);
      }
    }
    // The module still works.
    const [y] = runNode({ opType: 'Flatten' }, [new Tensor('float32', [1, 2], [2])]);
    assert.deepEqual(y.dims, [2, 1]);
  });
  test('not a model at all', () => expectModelError(new Uint8Array([0xff, 0xff, 0xff]), /cannot parse the ONNX model \(3 bytes\)/));
  test('a node that names a missing tensor', () => expectModelError(modelBytes({
    nodes: [node('Flatten', ['nowhere'], ['y'], {}, { name: 'f' })], outputs: [outInfo('y')],
  }), /node 'f' reads 'nowhere', which no input, initializer or node provides/));
  test('a cycle', () => expectModelError(modelBytes({
    nodes: [node('Flatten', ['b'], ['a'], {}, { name: 'n1' }), node('Flatten', ['a'], ['b'], {}, { name: 'n2' })], outputs: [outInfo('a')],
  }), /the graph has a cycle through node 'n[12]'/));
  test('raw_data whose length does not match its dims', () => expectModelError(modelBytes({
    nodes: [node('Flatten', ['w'], ['y'])], initializers: [rawTensor('w', 'float32', [2, 3], f32([1, 2, 3]))], outputs: [outInfo('y')],
  }), /tensor 'w' \(float32, dims \[2, 3\]\) has 12 bytes of data, expected 24/));
  test('an initializer with a negative dimension', () => expectModelError(modelBytes({
    nodes: [node('Flatten', ['w'], ['y'])], initializers: [create(TensorProtoSchema, { name: 'w', dataType: 1, dims: [2n, -3n], floatData: [1] })], outputs: [outInfo('y')],
  }), /tensor 'w' has dimension 1 = -3; dimensions must be integers >= 0/));
  test('an external data path that leaves the model folder', async () => {
    const dir = join(tmp, 'escape');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(tmp, 'secret.bin'), new Uint8Array(16));
    for (const location of ['../secret.bin', join(tmp, 'secret.bin')]) {
      writeFileSync(join(dir, 'model.onnx'), modelBytes({
        nodes: [node('Flatten', ['w'], ['y'])], outputs: [outInfo('y')],
        initializers: [create(TensorProtoSchema, { name: 'w', dataType: 1, dims: [4n], dataLocation: 1, externalData: [create(StringStringEntryProtoSchema, { key: 'location', value: location })] })],
      }));
      await expectModelError(join(dir, 'model.onnx'), /external data path '.*secret.bin' leaves the model's folder/);
    }
  });
  // The message, with what onnx-wasm runs read from the registry (opVersions), in its order.
  const runsMessage = () => {
    /** @type {Map<string, string[]>} */
    const ops = new Map();
    for (const v of opVersions()) if (!ops.get(v.domain)?.includes(v.op)) ops.set(v.domain, [...(ops.get(v.domain) ?? []), v.op]);
    const others = [...ops].filter(([d]) => d !== '').map(([d, list]) => `; in domain '${d}', ${list.join(', ')}`).join('');
    const text = `the model uses ops onnx-wasm does not run: Relu, Einsum, Gather (domain 'com.microsoft'); it runs ${ops.get('')?.join(', ')} and Constant in the default domain${others}`;
    return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  };
  test('unsupported ops and domains are listed together', () => expectModelError(modelBytes({
    nodes: [node('Relu', ['x'], ['a']), node('Einsum', ['a', 'a'], ['b']), node('Gather', ['b', 'i'], ['c'], {}, { domain: 'com.microsoft' }), node('Relu', ['c'], ['d'])],
    inputs: [valueInfo('x', 'float32', [1])], outputs: [outInfo('d')],
  }), runsMessage(), UnsupportedOpError));
  test('a type the version does not allow is refused at load, naming the node', () => expectModelError(modelBytes({
    nodes: [node('Flatten', ['x'], ['y'], {}, { name: 'fl' })], opset: 1,
    inputs: [valueInfo('x', 'int32', [2, 2])], outputs: [outInfo('y', 'int32')],
  }), /node 'fl' \(Flatten\): Flatten-1: .*int32/, TypeConstraintError));
  test('a Reshape whose constant shape does not fit is refused at load', () => expectModelError(modelBytes({
    nodes: [node('Reshape', ['x', 's'], ['y'], {}, { name: 'rs' })],
    inputs: [valueInfo('x', 'float32', [2, 3])], initializers: [rawTensor('s', 'int64', [1], i64([5]))], outputs: [outInfo('y')],
  }), /node 'rs' \(Reshape\): Reshape-13: /, ShapeError));
  test('no default-domain opset, no graph', async () => {
    await expectModelError(modelBytes({ nodes: [], outputs: [], opsets: [['ai.onnx.ml', 2]] }), /imports no opset of the default ONNX domain/);
    await expectModelError(toBinary(ModelProtoSchema, create(ModelProtoSchema, { irVersion: 8n })), /the model has no graph/);
  });
  test('create() takes a path, a Uint8Array or an ArrayBuffer', async () => {
    const s = await InferenceSession.create(chain.slice().buffer);
    await s.release();
    await assert.rejects(InferenceSession.create(42), InvalidArgumentError);
  });
});

// A graph of one node takes a planned path (session.mjs, oneNodePlan) once its feeds are Tensors
// that passed their checks: run 1 takes the general path, runs 2 and 3 the planned one, and each
// case's later runs swap one thing at a time. Graphs the plan does not cover are here too (the
// same input twice, a symbolic input, a graph output that is an input): they run as before.
describe('one-node graphs: runs after the first take the planned path and give the same results', () => {
  const grid = (n, dims) => new Tensor('float32', Float32Array.from({ length: n }, (_, k) => k), dims);
  const cases = [
    ['Gather of two fed inputs', {
      nodes: [node('Gather', ['a', 'i'], ['y'], { axis: 1 })],
      inputs: [valueInfo('a', 'float32', [2, 3]), valueInfo('i', 'int64', [2])], outputs: [outInfo('y')],
    }, () => ({ a: grid(6, [2, 3]), i: new Tensor('int64', [2n, -3n], [2]) }), [[2, 2], [2, 0, 5, 3]]],
    ['Gather of an initializer table by a fed index (the warm-up model\'s form)', {
      nodes: [node('Gather', ['d', 'i'], ['y'])],
      inputs: [valueInfo('i', 'int64', [3])], initializers: [rawTensor('d', 'float32', [3, 2], f32([0, 1, 2, 3, 4, 5]))], outputs: [outInfo('y')],
    }, () => ({ i: new Tensor('int64', [2n, 0n, 2n], [3]) }), [[3, 2], [4, 5, 0, 1, 4, 5]]],
    ['Gather of a fed table by constant indices', {
      nodes: [node('Gather', ['d', 'i'], ['y'])],
      inputs: [valueInfo('d', 'float32', [3, 2])], initializers: [rawTensor('i', 'int64', [1], i64([1]))], outputs: [outInfo('y')],
    }, () => ({ d: grid(6, [3, 2]) }), [[1, 2], [2, 3]]],
    ['Reshape with a fed shape', {
      nodes: [node('Reshape', ['x', 's'], ['y'])],
      inputs: [valueInfo('x', 'float32', [6]), valueInfo('s', 'int64', [2])], outputs: [outInfo('y')],
    }, () => ({ x: grid(6, [6]), s: new Tensor('int64', [3n, -1n], [2]) }), [[3, 2], [0, 1, 2, 3, 4, 5]]],
    ['Reshape-1 (shape attribute, one input)', {
      nodes: [node('Reshape', ['x'], ['y'], { shape: [2, 3] })], opset: 1,
      inputs: [valueInfo('x', 'float32', [6])], outputs: [outInfo('y')],
    }, () => ({ x: grid(6, [6]) }), [[2, 3], [0, 1, 2, 3, 4, 5]]],
    ['Flatten', {
      nodes: [node('Flatten', ['x'], ['y'], { axis: 1 })],
      inputs: [valueInfo('x', 'float32', [2, 1, 3])], outputs: [outInfo('y')],
    }, () => ({ x: grid(6, [2, 1, 3]) }), [[2, 3], [0, 1, 2, 3, 4, 5]]],
    ['not planned: one input read twice, Gather(x, x)', {
      nodes: [node('Gather', ['x', 'x'], ['y'])],
      inputs: [valueInfo('x', 'int64', [3])], outputs: [outInfo('y', 'int64')],
    }, () => ({ x: new Tensor('int64', [2n, 0n, 1n], [3]) }), [[3], [1, 2, 0]]],
    ['not planned: the graph output is the graph input (returned as a copy)', {
      nodes: [node('Flatten', ['x'], ['y'], { axis: 1 })],
      inputs: [valueInfo('x', 'float32', [2, 3])], outputs: [outInfo('x')],
    }, () => ({ x: grid(6, [2, 3]) }), [[2, 3], [0, 1, 2, 3, 4, 5]]],
    ['not planned: a symbolic input', {
      nodes: [node('Flatten', ['x'], ['y'], { axis: 1 })],
      inputs: [valueInfo('x', 'float32', ['n', 3])], outputs: [outInfo('y')],
    }, () => ({ x: grid(6, [2, 3]) }), [[2, 3], [0, 1, 2, 3, 4, 5]]],
  ];
  const values = (t) => Array.from(t.data, Number);
  for (const [what, model, feeds, [dims, data]] of cases) {
    test(what, async () => {
      const s = await InferenceSession.create(modelBytes(model));
      const f = feeds();
      const [outName] = s.outputNames, [first] = Object.keys(f);
      for (let k = 0; k < 3; ++k) {
        const r = await s.run(f);
        assert.deepEqual(Object.keys(r), [outName]);
        assert.deepEqual([r[outName].dims, values(r[outName])], [dims, data], `run ${k + 1}`);
        r[outName].dispose();
      }
      const before = memoryStats().heapUsed;
      await assert.rejects(s.run({ ...f, z: f[first] }), (e) => e instanceof InvalidArgumentError && /feed 'z' is not an input of this model/.test(e.message), 'an extra feed');
      const bad = new Tensor('float32', new Float32Array(7), [7]);
      await assert.rejects(s.run({ ...f, [first]: bad }), InvalidArgumentError, 'a feed of other dims in its place');
      bad.dispose();
      assert.equal(memoryStats().heapUsed, before, 'nothing left behind');
      const picked = await s.run(f, [outName]);
      assert.deepEqual(values(picked[outName]), data, 'with fetches');
      picked[outName].dispose();
      const like = await s.run(Object.fromEntries(Object.entries(f).map(([k, t]) => [k, { type: t.type, data: t.data.slice(), dims: t.dims }])));
      assert.deepEqual(values(like[outName]), data, '{ type, data, dims } feeds');
      like[outName].dispose();
      const again = await s.run(f);
      assert.deepEqual(values(again[outName]), data, 'the Tensors again');
      again[outName].dispose();
      f[first].dispose();
      await assert.rejects(s.run(f), DisposedError, 'a fed Tensor disposed since');
      for (const t of Object.values(f)) t.dispose();
      await s.release();
      await assert.rejects(s.run(f), /released/);
    });
  }
  test('not planned: a graph input the node does not read is still required on every run', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Flatten', ['x'], ['y'], { axis: 1 })],
      inputs: [valueInfo('x', 'float32', [2, 3]), valueInfo('unused', 'float32', [1])], outputs: [outInfo('y')],
    }));
    const x = grid(6, [2, 3]);
    for (let k = 0; k < 2; ++k) await assert.rejects(s.run({ x }), /input 'unused' is missing from the feeds/, `run ${k + 1}`);
    const unused = new Tensor('float32', [0], [1]);
    for (let k = 0; k < 2; ++k) {
      const { y } = await s.run({ x, unused });
      assert.deepEqual(values(y), [0, 1, 2, 3, 4, 5]);
      y.dispose();
    }
    for (const t of [x, unused]) t.dispose();
    await s.release();
  });
  test('a kernel error on the planned path leaves nothing behind; the next run works', async () => {
    const s = await InferenceSession.create(modelBytes(cases[0][1]));
    const a = grid(6, [2, 3]), i = new Tensor('int64', [0n, 1n], [2]);
    for (let k = 0; k < 2; ++k) (await s.run({ a, i })).y.dispose();
    i.data[1] = 3n;   // same dims, an index out of range
    await assert.rejects(s.run({ a, i }), IndexOutOfRangeError);
    const before = memoryStats().heapUsed;
    await assert.rejects(s.run({ a, i }), (e) => e instanceof IndexOutOfRangeError && /index 3 at position 1 is outside \[-3, 2\]/.test(e.message));
    assert.equal(memoryStats().heapUsed, before, 'no output left allocated');
    i.data[1] = -1n;
    const { y } = await s.run({ a, i });
    assert.deepEqual(values(y), [0, 2, 3, 5]);
    for (const t of [a, i, y]) t.dispose();
    await s.release();
  });
});

test('a feed named like an intermediate value is refused', async () => {
  const s = await InferenceSession.create(chain);
  const data = new Tensor('float32', new Float32Array(8), [1, 2, 4]);
  await assert.rejects(s.run({ data, g: data }), (e) => e instanceof InvalidArgumentError && /feed 'g' is not an input of this model; inputs: data/.test(e.message));
  const picked = await s.run({ data }, ['g', 'r']);
  assert.deepEqual(Object.keys(picked), ['g', 'r']);
  assert.deepEqual(picked.g.dims, [1, 2, 4]);
  data.dispose();
  await s.release();
});

test("run's fetches and options in onnxruntime-web's forms: { name: null }, run options, both; the rest refused by name", async () => {
  // (an object, run options or { name: null }, threw JS's 'fetches is not iterable')
  const s = await InferenceSession.create(chain);
  const data = new Tensor('float32', new Float32Array(8), [1, 2, 4]);
  const keys = async (...args) => {
    const r = await s.run({ data }, ...args);
    for (const t of Object.values(r)) t.dispose();
    return Object.keys(r);
  };
  const outputs = s.outputNames;
  assert.deepEqual(await keys({ g: null, r: null }), ['g', 'r']);
  assert.deepEqual(await keys({ g: null, tag: 'mixed: the rest ignored, as onnxruntime-web does' }), ['g']);
  assert.deepEqual(await keys({ logSeverityLevel: 3, tag: 'run options' }), outputs);
  assert.deepEqual(await keys(['g'], { tag: 'run options' }), ['g']);
  assert.deepEqual(await keys({ g: null }, { terminate: false }), ['g']);
  assert.deepEqual(await keys(undefined, { tag: 'x' }), outputs);
  assert.deepEqual(await keys([]), []);
  const before = memoryStats().heapUsed;
  const refusals = [
    [[{ gg: null }], "'gg' is not a value of this model"],
    [[{ g: data }], "run(feeds, fetches?, options?): fetches['g'] is a Tensor; onnx-wasm makes its outputs and writes into none given (pass null)"],
    [['g'], "run(feeds, fetches?, options?): fetches must be an array of names or an object of names to null, or the run options an object; got the string 'g'"],
    [[data], "run(feeds, fetches?, options?): fetches must be an array of names or an object of names to null, or the run options an object; got an object (Tensor)"],
    [[['g', 7]], "run(feeds, fetches?, options?): fetches[1] must be a value's name, got 7"],
    [[['g'], 'tag'], "run(feeds, fetches?, options?): options must be an object, got the string 'tag'"],
    [[{ tag: 'x' }, { tag: 'y' }], 'run(feeds, fetches?, options?): fetches maps no name to null'],
  ];
  for (const [args, message] of refusals)
    await assert.rejects(s.run({ data }, ...args), (e) => e instanceof InvalidArgumentError && e.message === message, message);
  assert.equal(memoryStats().heapUsed, before, 'nothing left behind');
  data.dispose();
  await s.release();
});

test('the warm-up model (js/model/warm-up.mjs) is the Gather it says it is', async () => {
  const { WARM_UP_MODEL } = await import('../../js/model/warm-up.mjs');
  const s = await InferenceSession.create(WARM_UP_MODEL);
  assert.deepEqual(s.nodes.map((n) => n.opType), ['Gather']);
  assert.deepEqual(s.inputMetadata, [{ name: 'i', isTensor: true, type: 'int64', shape: [1] }]);
  const i = new Tensor('int64', [1n], [1]);
  const { o } = await s.run({ i });
  assert.deepEqual([Array.from(o.dims), Array.from(o.data)], [[1, 2], [3, 4]]);
  o.dispose(); i.dispose();
  await s.release();
});

// A model that cannot be read is a ModelError (not fs's or fetch's own error) whose message names
// the file or URL and the cause.
describe('a model that cannot be read: a ModelError naming the file or URL and the cause', () => {
  // A server that answers /model.onnx (whose table.bin it does not have) and 404 for the rest.
  let server, base;
  const model = gatherModel({ dims: [4, 2] });
  const serve = () => new Promise((ok) => {
    server = createServer((req, res) => (req.url === '/model.onnx' ? res.end(model) : res.writeHead(404).end('not found')));
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${server.address().port}/`));
  });
  // A port nothing listens on: one just closed.
  const closedPort = () => new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
  });
  after(() => server?.close());
  const rejects = (promise, message) => assert.rejects(promise, (e) => {
    assert.ok(e instanceof ModelError, `${e.name}: ${e.message}`);
    assert.match(e.message, message);
    return true;
  });

  test('a file that does not exist (by absolute and by relative path)', async () => {
    const path = join(tmp, 'nope.onnx');
    await rejects(InferenceSession.create(path), new RegExp(`^cannot read the ONNX model '${path.replace(/[.\\]/g, '\\$&')}': ENOENT: no such file or directory$`));
    await rejects(InferenceSession.create('nope.onnx'), new RegExp(`^cannot read the ONNX model '${join(process.cwd(), 'nope.onnx').replace(/[.\\]/g, '\\$&')}': ENOENT`));
  });
  test('a folder', () => rejects(InferenceSession.create(tmp), /^cannot read the ONNX model '.*': EISDIR: illegal operation on a directory$/));
  test('an unreachable URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/model.onnx`;
    await rejects(InferenceSession.create(url), new RegExp(`^cannot fetch the ONNX model at ${url.replace(/\./g, '\\.')}: the request failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\)$`));
  });
  test('an HTTP error status', async () => {
    base ??= await serve();
    await rejects(InferenceSession.create(`${base}gone.onnx`), new RegExp(`^cannot fetch the ONNX model at ${base}gone\\.onnx: HTTP 404 Not Found$`));
  });
  test('external data at a URL that answers 404, or at an unreachable one', async () => {
    base ??= await serve();
    await rejects(InferenceSession.create(`${base}model.onnx`),
      new RegExp(`^tensor 'table'.*: cannot read external data 'table\\.bin': cannot fetch ${base}table\\.bin: HTTP 404 Not Found$`));
    const gone = `http://127.0.0.1:${await closedPort()}/table.bin`;
    await rejects(InferenceSession.create(model, { externalData: { 'table.bin': gone } }),
      /^tensor 'table'.*: cannot read external data 'table\.bin': cannot fetch http:\/\/127\.0\.0\.1:\d+\/table\.bin: the request failed \(connect ECONNREFUSED /);
  });
});

// docs/errors.md: in a model, a node's error is prefixed with the node, at load and at run time,
// on every path a run takes: the general one, the one-node plan, and a table read by rows.
describe("run-time errors name the node: node 'lookup' (Gather): ...", () => {
  const prefixed = (e) => e instanceof IndexOutOfRangeError && /^node 'lookup' \(Gather\): Gather-13: index 9 at position 1 is outside \[-4, 3\] for axis 0 of size 4$/.test(e.message);
  test('the general path, and the one-node plan', async () => {
    const s = await InferenceSession.create(modelBytes({
      nodes: [node('Gather', ['t', 'i'], ['y'], {}, { name: 'lookup' })],
      initializers: [rawTensor('t', 'float32', [4], f32([1, 2, 3, 4]))],
      inputs: [valueInfo('i', 'int64', [2])], outputs: [outInfo('y')],
    }));
    const ok = new Tensor('int64', [0n, 1n], [2]), bad = new Tensor('int64', [0n, 9n], [2]);
    await assert.rejects(s.run({ i: bad }), prefixed);   // general path (a new feed)
    (await s.run({ i: ok })).y.dispose();
    (await s.run({ i: ok })).y.dispose();                // ok has passed: planned from here
    ok.data[1] = 9n;
    await assert.rejects(s.run({ i: ok }), prefixed);    // planned path
    await assert.rejects(s.run({ i: bad }, ['y']), prefixed);
    for (const t of [ok, bad]) t.dispose();
    await s.release();
  });
  test('a graph of several nodes, and a table read by rows from its file', async () => {
    const dir = join(tmp, 'prefix');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'model.onnx'), gatherModel({ dims: [4, 2], between: true }));
    writeFileSync(join(dir, 'table.bin'), tableBytes('float32', [4, 2]));
    for (const externalDataMode of ['memory', 'lazy']) {
      const s = await InferenceSession.create(join(dir, 'model.onnx'), { externalDataMode });
      assert.equal(s.valueInfo('table').storage, externalDataMode === 'lazy' ? 'file' : 'memory');
      const bad = new Tensor('int64', [0n, 9n], [2]);
      await assert.rejects(s.run({ indices: bad }), prefixed, externalDataMode);
      bad.dispose();
      await s.release();
    }
  });
});

test("InferenceSession.create(buffer, byteOffset, byteLength?, options?), onnxruntime-web's form; options of another kind refused", async () => {
  // (the offset was taken for options and the whole buffer parsed: a ModelError at byte 1)
  const padded = new Uint8Array(chain.length + 24);
  padded.set(chain, 16);
  const data = new Tensor('float32', new Float32Array(8), [1, 2, 4]);
  const forms = [[padded.buffer, 16, chain.length], [padded.buffer, 16, chain.length, { externalDataMode: 'memory' }]];
  const shared = new SharedArrayBuffer(chain.length + 3);
  new Uint8Array(shared).set(chain, 3);
  forms.push([shared, 3]);
  for (const args of forms) {
    const s = await InferenceSession.create(...args);
    const r = await s.run({ data });
    assert.deepEqual(Object.keys(r), s.outputNames, `${args.length} arguments`);
    for (const t of Object.values(r)) t.dispose();
    await s.release();
  }
  const form = 'InferenceSession.create(buffer, byteOffset, byteLength?, options?)';
  const refused = [
    [[padded.buffer, padded.length], `${form}: byteOffset ${padded.length} is outside [0, ${padded.length})`],
    [[padded.buffer, 1.5], `${form}: byteOffset 1.5 is outside [0, ${padded.length})`],
    [[padded.buffer, 16, 0], `${form}: byteLength 0 is outside (0, ${padded.length - 16}]`],
    [[padded.buffer, 16, padded.length], `${form}: byteLength ${padded.length} is outside (0, ${padded.length - 16}]`],
    [[padded.buffer, 16, '9'], `${form}: byteLength the string '9' is outside (0, ${padded.length - 16}]`],
    [[padded.buffer, 16, undefined, {}], `${form}: options come after a byte length`],
    [[padded.buffer, 16, chain.length, 'x'], `${form}: options must be an object, got the string 'x'`],
    [[padded, 16], `${form}: the buffer must be an ArrayBuffer or SharedArrayBuffer, got an object (Uint8Array)`],
    [[chain, 'memory'], "InferenceSession.create(source, options?): options must be an object, got the string 'memory'"],
    [[chain, null], 'InferenceSession.create(source, options?): options must be an object, got null'],
    [[chain, {}, 5], 'InferenceSession.create(source, options?): a byte length, 5, is taken only after a byte offset'],
  ];
  for (const [args, message] of refused)
    await assert.rejects(InferenceSession.create(...args), (e) => e instanceof InvalidArgumentError && e.message === message, message);
  data.dispose();
});
