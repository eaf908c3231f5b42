// Gather models whose table is an initializer in external data, for the external-data tests:
// the model bytes, and the table's bytes with a pattern that makes every row recognizable.
import { create, toBinary } from '@bufbuild/protobuf';
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, StringStringEntryProtoSchema,
  TensorProto_DataType as DT, TensorProtoSchema,
} from 'onnx-buf';
import { attribute, valueInfo } from './gen-models.mjs';
import { TYPES } from './onnx-spec.mjs';

const ONNX_ENUM = { float32: 'FLOAT', float64: 'DOUBLE' };
export const dataType = (type) => DT[ONNX_ENUM[type] ?? type.toUpperCase()];

// The bytes of a [rows, ...rowDims] table of `type`: byte k of row r is (r * 131 + k * 7 + 3) & 255
// (for bool, 0 or 1), so every row differs from its neighbours.
export function tableBytes(type, dims) {
  const perRow = Math.ceil((dims.slice(1).reduce((a, b) => a * b, 1) * TYPES[type][1]) / 8);
  const bytes = new Uint8Array(Math.ceil((dims.reduce((a, b) => a * b, 1) * TYPES[type][1]) / 8));
  for (let r = 0; r < dims[0]; ++r)
    for (let k = 0; k < perRow && r * perRow + k < bytes.length; ++k)
      bytes[r * perRow + k] = type === 'bool' ? (r + k) & 1 : (r * 131 + k * 7 + 3) & 255;
  return bytes;
}

// A model: out = Gather(table, indices; axis) with `table` in external file `location` at
// `offset` (length declared unless `length` is null), `indices` an int64 graph input of dims
// `indexDims` (null: any rank).
// extra: more nodes reading the table ({ alsoFlatten: true } adds Flatten(table) as output 'flat').
// between: the Gather between two nodes: idx = Reshape(indices, [1, -1]), rows = Gather(table,
// idx), out = Flatten(rows; axis 1), so that out is [1, n * rowSize] (a run reads the table by
// rows after a node and before another).
export function gatherModel({ type = 'float32', dims, location = 'table.bin', offset = 0, length, axis = 0, opset = 13, alsoFlatten = false, indexDims = ['n'], between = false }) {
  const bytes = Math.ceil((dims.reduce((a, b) => a * b, 1) * TYPES[type][1]) / 8);
  const entries = [['location', location], ['offset', String(offset)]];
  if (length !== null) entries.push(['length', String(length ?? bytes)]);
  const table = create(TensorProtoSchema, {
    name: 'table', dataType: dataType(type), dims: dims.map(BigInt), dataLocation: 1,
    externalData: entries.map(([key, value]) => create(StringStringEntryProtoSchema, { key, value })),
  });
  const nodes = [create(NodeProtoSchema, { opType: 'Gather', name: 'lookup', input: ['table', 'indices'], output: ['out'], attribute: [attribute('axis', axis)] })];
  const outputs = [valueInfo('out', type, null)];
  const initializers = [table];
  if (between) {
    initializers.push(create(TensorProtoSchema, { name: 'shape', dataType: DT.INT64, dims: [2n], int64Data: [1n, -1n] }));
    nodes.splice(0, 1,
      create(NodeProtoSchema, { opType: 'Reshape', name: 'before', input: ['indices', 'shape'], output: ['idx'] }),
      create(NodeProtoSchema, { opType: 'Gather', name: 'lookup', input: ['table', 'idx'], output: ['rows'], attribute: [attribute('axis', axis)] }),
      create(NodeProtoSchema, { opType: 'Flatten', name: 'after', input: ['rows'], output: ['out'], attribute: [attribute('axis', 1)] }));
  }
  if (alsoFlatten) {
    nodes.push(create(NodeProtoSchema, { opType: 'Flatten', name: 'flat', input: ['table'], output: ['flat'], attribute: [attribute('axis', 1)] }));
    outputs.push(valueInfo('flat', type, null));
  }
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(opset) })],
    graph: create(GraphProtoSchema, { name: 'g', node: nodes, input: [valueInfo('indices', 'int64', indexDims)], output: outputs, initializer: initializers }),
  }));
}

// A TensorProto's externalData entries: its bytes are `length` bytes at `offset` of `location`.
export const externalEntries = (location, offset, length) =>
  [['location', location], ['offset', String(offset)], ['length', String(length)]].map(([key, value]) => create(StringStringEntryProtoSchema, { key, value }));

// A quantized embedding table (issue 30): out = com.microsoft GatherBlockQuantized(data, ids,
// scales; block_size `block`, bits `bits`, gather_axis 0, quantize_axis 1), opsets '' 21 and
// com.microsoft 1. data: uint8 [rows, cols * bits / 8] (codes packed lowest bits first) at offset
// 0 of external file `location`, scales: float16 [rows, cols / block] right after it, no zero
// points; ids: int64 [batch, seq]; out: float16 [batch, seq, cols]. With `scale` (the bits of a
// float16), onnxruntime-genai's form: the gathered rows, then out = Mul(them, scale), the scale a
// float16 scalar initializer (Gemma's embedding scale: round(sqrt(hidden), 2)). (bench/embeddings.mjs
// makes the Gemma-sized one, tests/browser/opfs.test.mjs a small one.)
export function gatherBlockQuantizedModel({ rows, cols, block = 32, bits = 4, location = 'embeddings.bin', scale }) {
  const dataBytes = (rows * cols * bits) / 8, scaleBytes = ((rows * cols) / block) * 2;
  const external = (name, type, dims, offset, length) => create(TensorProtoSchema, {
    name, dataType: dataType(type), dims: dims.map(BigInt), dataLocation: 1,
    externalData: externalEntries(location, offset, length),
  });
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 21n }), create(OperatorSetIdProtoSchema, { domain: 'com.microsoft', version: 1n })],
    graph: create(GraphProtoSchema, {
      name: 'embeddings',
      node: [create(NodeProtoSchema, {
        opType: 'GatherBlockQuantized', domain: 'com.microsoft', name: 'embed', input: ['data', 'ids', 'scales'], output: [scale === undefined ? 'out' : 'gathered'],
        attribute: [attribute('block_size', block), attribute('bits', bits), attribute('gather_axis', 0), attribute('quantize_axis', 1)],
      }), ...(scale === undefined ? [] : [create(NodeProtoSchema, { opType: 'Mul', name: 'embed_scale', input: ['gathered', 'scale'], output: ['out'] })])],
      input: [valueInfo('ids', 'int64', ['batch', 'seq'])],
      output: [valueInfo('out', 'float16', ['batch', 'seq', cols])],
      initializer: [
        external('data', 'uint8', [rows, (cols * bits) / 8], 0, dataBytes),
        external('scales', 'float16', [rows, cols / block], dataBytes, scaleBytes),
        ...(scale === undefined ? [] : [create(TensorProtoSchema, { name: 'scale', dataType: dataType('float16'), rawData: new Uint8Array(Uint16Array.of(scale).buffer) })]),
      ],
    }),
  }));
}

// The external file of gatherBlockQuantizedModel: random codes (xorshift32, fixed seed) and
// finite float16 scales of both signs, magnitudes in [2^-4, 2) (sign, exponent 11..15, mantissa).
// A Buffer of rows * cols * bits / 8 + rows * cols / block * 2 bytes.
export function gatherBlockQuantizedBytes({ rows, cols, block = 32, bits = 4 }) {
  const dataBytes = (rows * cols * bits) / 8, scaleCount = (rows * cols) / block;
  const buf = Buffer.allocUnsafeSlow(dataBytes + scaleCount * 2);   // (not pooled: word-aligned)
  const words = new Uint32Array(buf.buffer, buf.byteOffset, Math.floor(dataBytes / 4));
  let x = 0x2545f491;
  for (let i = 0; i < words.length; ++i) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; words[i] = x; }
  for (let i = words.length * 4; i < dataBytes; ++i) buf[i] = (i * 131) & 255;
  const scales = new Uint16Array(buf.buffer, buf.byteOffset + dataBytes, scaleCount);
  let y = 0x9e3779b9 | 0;
  for (let i = 0; i < scales.length; ++i) {
    y ^= y << 13; y ^= y >>> 17; y ^= y << 5;
    const v = y >>> 0;
    scales[i] = (v & 0x8000) | ((11 + ((v >>> 16) % 5)) << 10) | (v & 0x3ff);
  }
  return buf;
}
