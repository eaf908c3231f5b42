// DequantizeLinear in InferenceSession, against onnxruntime-node's CPU kernel (the reference): one
// model per form, every output compared byte for byte. The forms: onnxruntime's q8 embedding
// (Gather of a uint8 table, then a scalar scale and zero point), per-tensor, per-axis and blocked
// scales (the last axis, and axis 0 where each element of a row has its own scale), int8, uint8,
// int16, uint16, int32, int4, uint4, int2 and uint2 x, float and float16 scales, at opsets 10 to
// 25. onnxruntime 1.30 has no bfloat16 x_scale and fails an output_dtype other than x_scale's
// type, so those are left to the oracle of every element, at every version and type:
// tests/cpp/dequantize_linear_test.cpp.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema,
} from 'onnx-buf';
import { init, InferenceSession, Tensor } from '../../js/index.mjs';
import { attribute, valueInfo } from '../support/gen-models.mjs';
import { BITS, bytes, product, tensorProto } from '../support/quantized.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
await init();

// float -> IEEE half, round to nearest even (finite, normal range here).
function toHalf(f) {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, f);
  const u = view.getUint32(0), sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, man = u & 0x7fffff;
  if (f === 0 || exp <= 0) return sign;
  let r = (exp << 10) | (man >>> 13);
  const rest = man & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (r & 1))) r += 1;
  return sign | r;
}

// Scales of `type` (float32 or float16), finite, of both signs, as the typed array each API takes.
function scales(type, count, seed) {
  const f = Float32Array.from(bytes(count, seed), (b) => (b - 128) / 97);
  return type === 'float32' ? f : Uint16Array.from(f, toHalf);
}

// y = DequantizeLinear(x, x_scale[, x_zero_point]): x_scale is the graph's input (nothing to fold),
// x and the zero point initializers; or, for `embedding`, x = Gather(table, ids) with ids the input.
function model(c) {
  const initializers = [tensorProto(c.embedding ? 'table' : 'x', c.type, c.dims, bytes(Math.ceil(product(c.dims) * BITS[c.type] / 8), 1))];
  const inputs = ['x', 'x_scale'];
  if (c.zero) {
    initializers.push(tensorProto('x_zero_point', c.type, c.scaleDims, bytes(Math.ceil(product(c.scaleDims) * BITS[c.type] / 8), 3)));
    inputs.push('x_zero_point');
  }
  const nodes = [create(NodeProtoSchema, {
    opType: 'DequantizeLinear', name: 'dq', input: inputs, output: ['y'],
    attribute: Object.entries(c.attrs ?? {}).map(([k, v]) => attribute(k, v)),
  })];
  const graphInputs = [valueInfo('x_scale', c.scaleType, c.scaleDims)];
  if (c.embedding) {
    nodes.unshift(create(NodeProtoSchema, { opType: 'Gather', name: 'embed', input: ['table', 'ids'], output: ['x'] }));
    graphInputs.push(valueInfo('ids', 'int64', ['batch', 'seq']));
  }
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(c.opset) })],
    graph: create(GraphProtoSchema, {
      name: 'g', node: nodes, input: graphInputs, output: [valueInfo('y', c.opset < 19 ? 'float32' : c.scaleType, null)], initializer: initializers,
    }),
  }));
}

const CASES = [
  { name: "q8 embedding (onnxruntime's dynamic quantizer): Gather of uint8, then a scalar scale and zero point", opset: 13, type: 'uint8', dims: [50, 40], embedding: true, scaleType: 'float32', scaleDims: [], zero: true },
  { name: 'q8 embedding at opset 21, float16 scale', opset: 21, type: 'uint8', dims: [50, 40], embedding: true, scaleType: 'float16', scaleDims: [], zero: true },
  { name: 'opset 10: int8 per tensor', opset: 10, type: 'int8', dims: [3, 37], scaleType: 'float32', scaleDims: [], zero: true },
  { name: 'opset 10: int32, no zero point', opset: 10, type: 'int32', dims: [5, 7], scaleType: 'float32', scaleDims: [], zero: false },
  { name: 'opset 13: uint8 per axis 1', opset: 13, type: 'uint8', dims: [2, 5, 19], scaleType: 'float32', scaleDims: [5], zero: true },
  { name: 'opset 13: int8 per axis -1 (the last)', opset: 13, type: 'int8', dims: [4, 6], scaleType: 'float32', scaleDims: [6], zero: true, attrs: { axis: -1 } },
  { name: 'opset 13: int32 per axis 0, with zero points (subtracted, wrapping)', opset: 13, type: 'int32', dims: [3, 8], scaleType: 'float32', scaleDims: [3], zero: true, attrs: { axis: 0 } },
  { name: 'opset 19: uint8 per tensor, float16 scale', opset: 19, type: 'uint8', dims: [3, 70], scaleType: 'float16', scaleDims: [], zero: true },
  { name: 'opset 19: int8 per axis, float16 scales', opset: 19, type: 'int8', dims: [3, 4, 9], scaleType: 'float16', scaleDims: [4], zero: true },
  { name: 'opset 21: int16 per tensor', opset: 21, type: 'int16', dims: [3, 33], scaleType: 'float32', scaleDims: [], zero: true },
  { name: 'opset 21: uint16 per axis 0, float16 scales', opset: 21, type: 'uint16', dims: [4, 17], scaleType: 'float16', scaleDims: [4], zero: true, attrs: { axis: 0 } },
  { name: 'opset 21: int4 per tensor, odd count', opset: 21, type: 'int4', dims: [5, 7], scaleType: 'float32', scaleDims: [], zero: true },
  { name: 'opset 21: uint4 per axis 1', opset: 21, type: 'uint4', dims: [3, 5, 7], scaleType: 'float32', scaleDims: [5], zero: true },
  { name: 'opset 21: int4 blocked along the last axis (block 16)', opset: 21, type: 'int4', dims: [6, 70], scaleType: 'float32', scaleDims: [6, 5], zero: true, attrs: { block_size: 16 } },
  { name: 'opset 21: int4 blocked, no zero point, float16 scales', opset: 21, type: 'int4', dims: [4, 64], scaleType: 'float16', scaleDims: [4, 2], zero: false, attrs: { block_size: 32 } },
  { name: 'opset 21: uint4 blocked along axis 0 (a scale per element of a row)', opset: 21, type: 'uint4', dims: [37, 6], scaleType: 'float16', scaleDims: [3, 6], zero: true, attrs: { axis: 0, block_size: 16 } },
  { name: 'opset 25: int2 per tensor, odd count', opset: 25, type: 'int2', dims: [3, 11], scaleType: 'float32', scaleDims: [], zero: true },
  { name: 'opset 25: uint2 blocked along the last axis (block 4), float16 scales', opset: 25, type: 'uint2', dims: [2, 22], scaleType: 'float16', scaleDims: [2, 6], zero: true, attrs: { block_size: 4 } },
  { name: 'opset 25: int2 per axis 0', opset: 25, type: 'int2', dims: [3, 13], scaleType: 'float32', scaleDims: [3], zero: true, attrs: { axis: 0 } },
  { name: 'opset 21: uint8 blocked along a middle axis', opset: 21, type: 'uint8', dims: [2, 9, 3], scaleType: 'float32', scaleDims: [2, 3, 3], zero: true, attrs: { axis: 1, block_size: 4 } },
];

const ids = [[0, 49, 3], [2, 2, 17]];

for (const c of CASES) {
  test(`${c.name}: the session's output equals onnxruntime-node's, byte for byte`, async () => {
    const bytesOfModel = model(c);
    const s = scales(c.scaleType, product(c.scaleDims), 2);
    const feeds = (T) => {
      const f = { x_scale: new T(c.scaleType, s, c.scaleDims) };
      if (c.embedding) f.ids = new T('int64', BigInt64Array.from(ids.flat(), BigInt), [2, 3]);
      return f;
    };
    const reference = await ort.InferenceSession.create(bytesOfModel);
    const want = (await reference.run(feeds(ort.Tensor))).y;
    const session = await InferenceSession.create(bytesOfModel);
    const { y } = await session.run(feeds(Tensor));
    assert.equal(y.type, want.type);
    assert.deepEqual(y.dims, want.dims.map(Number));
    if (c.embedding) assert.deepEqual(session.outputMetadata[0].shape, ['batch', 'seq', c.dims[1]], 'inference: the symbols of the ids');
    assert.deepEqual(new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength),
      new Uint8Array(want.data.buffer, want.data.byteOffset, want.data.byteLength));
    y.dispose();
    await session.release();
    await reference.release();
  });
}
