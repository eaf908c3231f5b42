// GatherElements and GatherND outside the Catch2 oracle (tests/cpp/gather_elements_test.cpp,
// gather_nd_test.cpp): torch.gather as torch.onnx exports it, against torch's own outputs byte for
// byte (tests/fixtures/torch-gather, written by tests/support/gen-torch-gather.py); both ops against
// onnxruntime-node's CPU kernels (negative indices, every axis, every batch_dims, several types),
// byte for byte; and their errors through runNode.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema } from 'onnx-buf';
import { init, InferenceSession, Tensor, runNode, IndexOutOfRangeError, ShapeError } from '../../js/index.mjs';
import { attribute, valueInfo } from '../support/gen-models.mjs';
import { checkTestDir } from '../support/onnx-test-dir.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
await init();

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/torch-gather');
const dirs = readdirSync(fixtures).filter((d) => d.startsWith('test_torch_gather_')).sort();

test('the torch fixtures are present', () => {
  assert.equal(dirs.length, 13);
});

for (const d of dirs) {
  test(`torch.gather exported as GatherElements: ${d} equals torch's output byte for byte`, async () => {
    assert.equal(await checkTestDir(join(fixtures, d)), 1);
  });
}

// A deterministic byte pattern, different for every tensor.
function bytes(n, seed) {
  const b = new Uint8Array(n);
  let x = (seed * 2654435761) >>> 0;
  for (let i = 0; i < n; ++i) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 16; }
  return b;
}

const WIDTH = { float32: 4, float16: 2, int64: 8, uint8: 1, int32: 4, bool: 1, float64: 8 };
const ARRAY = { float32: Float32Array, float16: Uint16Array, int64: BigInt64Array, uint8: Uint8Array, int32: Int32Array, bool: Uint8Array, float64: Float64Array };
const count = (dims) => dims.reduce((a, b) => a * b, 1);

// Data of `type` from bytes (bools 0 or 1; floats finite: sign and exponent bits kept in range).
function dataOf(type, dims, seed) {
  const n = count(dims);
  const raw = bytes(n * WIDTH[type], seed);
  if (type === 'bool') raw.forEach((b, i) => { raw[i] = b & 1; });
  if (type === 'float32' || type === 'float64') return new ARRAY[type](Array.from({ length: n }, (_, i) => (raw[i] - 128) / 7));
  if (type === 'float16') for (let i = 1; i < raw.length; i += 2) raw[i] &= 0x3b;
  return new ARRAY[type](raw.buffer);
}

// Indices whose entry k is in [-s, s - 1] for s = sizes[k % sizes.length].
function indicesOf(type, dims, sizes, seed) {
  const raw = bytes(count(dims), seed);
  const v = Array.from(raw, (b, i) => { const s = sizes[i % sizes.length]; return (b % (2 * s)) - s; });
  return type === 'int64' ? BigInt64Array.from(v, BigInt) : Int32Array.from(v);
}

function model(op, opset, attrs, dataType, indexType) {
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(opset) })],
    graph: create(GraphProtoSchema, {
      name: 'g',
      node: [create(NodeProtoSchema, { opType: op, name: 'n', input: ['data', 'indices'], output: ['out'],
        attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)) })],
      input: [valueInfo('data', dataType, null), valueInfo('indices', indexType, null)],
      output: [valueInfo('out', dataType, null)],
    }),
  }));
}

const asBytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

// [op, opset, attributes, data type, data dims, index type, index dims, the sizes indices range over]
const CASES = [
  ['GatherElements', 11, { axis: 0 }, 'float32', [4, 5], 'int64', [6, 5], [4]],
  ['GatherElements', 13, { axis: 1 }, 'float16', [4, 5], 'int32', [3, 9], [5]],
  ['GatherElements', 13, { axis: -1 }, 'int64', [2, 3, 40], 'int64', [2, 2, 70], [40]],
  ['GatherElements', 13, { axis: 1 }, 'uint8', [3, 6, 4], 'int32', [2, 8, 3], [6]],
  ['GatherElements', 18, { axis: -3 }, 'bool', [5, 2, 3], 'int64', [7, 2, 3], [5]],
  ['GatherND', 11, {}, 'float32', [3, 4, 5], 'int64', [6, 2], [3, 4]],
  ['GatherND', 12, { batch_dims: 1 }, 'float64', [3, 4, 5], 'int64', [3, 7, 1], [4]],
  ['GatherND', 13, { batch_dims: 2 }, 'int32', [2, 3, 4, 5], 'int64', [2, 3, 6, 2], [4, 5]],
  ['GatherND', 13, { batch_dims: 1 }, 'uint8', [2, 3, 4, 5], 'int64', [2, 5, 3], [3, 4, 5]],
  ['GatherND', 13, {}, 'float16', [4, 300], 'int64', [9, 1], [4]],
  ['GatherND', 13, { batch_dims: 0 }, 'int64', [5], 'int64', [2, 3, 1], [5]],
];

for (const [op, opset, attrs, type, dims, indexType, indexDims, sizes] of CASES) {
  test(`${op}-${opset} ${JSON.stringify(attrs)} ${type} [${dims}] at ${indexType} [${indexDims}]: equals onnxruntime-node byte for byte`, async () => {
    const bytesOfModel = model(op, opset, attrs, type, indexType);
    const data = dataOf(type, dims, dims.length + 1), indices = indicesOf(indexType, indexDims, sizes, indexDims.length + 7);
    const reference = await ort.InferenceSession.create(bytesOfModel);
    const want = (await reference.run({ data: new ort.Tensor(type, data, dims), indices: new ort.Tensor(indexType, indices, indexDims) })).out;
    const session = await InferenceSession.create(bytesOfModel);
    const { out } = await session.run({ data: new Tensor(type, data, dims), indices: new Tensor(indexType, indices, indexDims) });
    assert.equal(out.type, type);
    assert.deepEqual(out.dims, want.dims.map(Number));
    assert.deepEqual(asBytes(out.data), asBytes(want.data));
    out.dispose();
    await session.release();
    await reference.release();
  });
}

test('runNode: GatherElements and GatherND report bad indices and shapes with typed errors, and keep working', () => {
  const data = new Tensor('float32', [1, 2, 3, 4, 5, 6], [2, 3]);
  assert.throws(() => runNode({ opType: 'GatherElements', attributes: { axis: 1 } }, [data, new Tensor('int64', [0n, -3n, 3n, 1n], [2, 2])]),
    (e) => e instanceof IndexOutOfRangeError && e.message === 'GatherElements-13: index 3 at position 2 is outside [-3, 2] for axis 1 of size 3');
  assert.throws(() => runNode({ opType: 'GatherElements' }, [data, new Tensor('int32', [0, 1, 0, 1, 0, 1, 0, 1], [2, 4])]),
    (e) => e instanceof ShapeError && e.message === 'GatherElements-13: indices has shape [2, 4] and data [2, 3]; ' +
      'dimension 1 of indices (4) must not exceed data\'s (3) off the axis 0');
  assert.throws(() => runNode({ opType: 'GatherND' }, [data, new Tensor('int64', [1n, 0n, 1n, 3n], [2, 2])]),
    (e) => e instanceof IndexOutOfRangeError && e.message === 'GatherND-13: index 3 at position 3 is outside [-3, 2] for axis 1 of size 3');
  assert.throws(() => runNode({ opType: 'GatherND', attributes: { batch_dims: 1 } }, [data, new Tensor('int64', [0n, 1n, 2n], [3, 1])]),
    (e) => e instanceof ShapeError && e.message === 'GatherND-13: indices has shape [3, 1] and data [2, 3]; dimension 0 of indices (3) and of data (2) must be equal: the first 1 are batch dims (batch_dims 1)');
  const [rows] = runNode({ opType: 'GatherND' }, [data, new Tensor('int64', [-1n, 0n], [2, 1])]);
  assert.deepEqual(rows.dims, [2, 3]);
  assert.deepEqual(Array.from(rows.data), [4, 5, 6, 1, 2, 3]);
  const [picked] = runNode({ opType: 'GatherElements', attributes: { axis: 1 } }, [data, new Tensor('int64', [2n, -3n, 0n, 1n], [2, 2])]);
  assert.deepEqual(Array.from(picked.data), [3, 1, 4, 5]);
  for (const t of [data, rows, picked]) t.dispose();
});
