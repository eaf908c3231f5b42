// Generated conformance models: one ONNX test folder (model.onnx + test_data_set_0) for every
// version of Gather, Flatten and Reshape and every element type that version allows, in the
// layout of ONNX's backend tests, so that they are checked exactly as ONNX's own are. Two
// encodings of the data: a graph input fed from input_0.pb (raw_data, or string_data), and an
// initializer in the typed fields (float_data, int32_data, ...). Expected outputs come from the
// spec table and the reference Gather in onnx-spec.mjs, not from the runtime.
import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProtoSchema, GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema,
  TensorProto_DataType as DT, TensorProtoSchema, TypeProtoSchema, ValueInfoProtoSchema,
} from 'onnx-buf';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC, TYPES, parseTypes, refGather, elementsOf } from './onnx-spec.mjs';

const ONNX_ENUM = { float32: 'FLOAT', float64: 'DOUBLE' };
const dataType = (type) => DT[ONNX_ENUM[type] ?? type.toUpperCase()];
const prod = (d) => d.reduce((a, b) => a * b, 1);

// Elements of `type` with distinct bytes: { bytes } for numbers (packed for sub-byte types),
// { strings } for strings.
function values(type, n) {
  if (type === 'string') return { strings: Array.from({ length: n }, (_, k) => `v${k}é`) };
  const bits = TYPES[type][1];
  const bytes = new Uint8Array(Math.ceil((n * bits) / 8));
  for (let i = 0; i < bytes.length; ++i) bytes[i] = type === 'bool' ? (i * 7) % 3 === 0 ? 1 : 0 : (i * 53 + 17) & 0xff;
  return { bytes };
}

// TensorProto in raw_data (string_data for strings).
export function rawTensor(name, type, dims, v) {
  const t = { name, dataType: dataType(type), dims: dims.map(BigInt) };
  if (type === 'string') t.stringData = v.strings.map((s) => new TextEncoder().encode(s));
  else t.rawData = v.bytes;
  return create(TensorProtoSchema, t);
}

// TensorProto in the typed field onnx.proto assigns to the type.
export function typedTensor(name, type, dims, v) {
  const t = { name, dataType: dataType(type), dims: dims.map(BigInt) };
  if (type === 'string') {
    t.stringData = v.strings.map((s) => new TextEncoder().encode(s));
  } else {
    const b = v.bytes.buffer;
    switch (type) {
      case 'float32': case 'complex64': t.floatData = Array.from(new Float32Array(b)); break;
      case 'float64': case 'complex128': t.doubleData = Array.from(new Float64Array(b)); break;
      case 'int64': t.int64Data = Array.from(new BigInt64Array(b)); break;
      case 'uint64': t.uint64Data = Array.from(new BigUint64Array(b)); break;
      case 'uint32': t.uint64Data = Array.from(new Uint32Array(b), BigInt); break;
      case 'int8': t.int32Data = Array.from(new Int8Array(b)); break;
      case 'int16': t.int32Data = Array.from(new Int16Array(b)); break;
      case 'int32': t.int32Data = Array.from(new Int32Array(b)); break;
      case 'uint16': case 'float16': case 'bfloat16': t.int32Data = Array.from(new Uint16Array(b)); break;
      default: t.int32Data = Array.from(v.bytes);   // uint8, bool, float8, and packed sub-byte bytes
    }
  }
  return create(TensorProtoSchema, t);
}

export function valueInfo(name, type, dims) {
  const tensorType = { elemType: dataType(type) };
  if (dims) tensorType.shape = { dim: dims.map((d) => ({ value: typeof d === 'string' ? { case: 'dimParam', value: d } : { case: 'dimValue', value: BigInt(d) } })) };
  return create(ValueInfoProtoSchema, { name, type: create(TypeProtoSchema, { value: { case: 'tensorType', value: tensorType } }) });
}

export function attribute(name, value) {
  if (Array.isArray(value)) return create(AttributeProtoSchema, { name, type: 7, ints: value.map(BigInt) });
  return create(AttributeProtoSchema, { name, type: 2, i: BigInt(value) });
}

// The node, its extra initializers and the expected output { dims, bytes | strings } for one
// op version and type; data has dims `dims` and values `v`.
function caseFor(op, since, type, dims, v) {
  if (op === 'Gather') {
    const axis = 2;
    const idx = since >= 11 ? [3, 0, 1, -1] : [3, 0, 1, 2];
    const useInt32 = type.length % 2 === 0;
    const idxType = useInt32 ? 'int32' : 'int64';
    const idxBytes = new Uint8Array((useInt32 ? Int32Array.from(idx) : BigInt64Array.from(idx.map(BigInt))).buffer);
    const width = TYPES[type][1] / 8;
    const elements = type === 'string' ? v.strings : elementsOf(v.bytes, width);
    const ref = refGather(elements, dims, idx, [2, 2], axis);   // axis 2 has size 4
    return {
      attributes: { axis },
      extra: [rawTensor('indices', idxType, [2, 2], { bytes: idxBytes })],
      extraFed: true,
      outDims: ref.dims,
      out: type === 'string' ? { strings: ref.elements } : { bytes: Uint8Array.from(Buffer.from(ref.elements.join(''), 'hex')) },
    };
  }
  if (op === 'Flatten') {
    const axis = since >= 11 ? -1 : 2;
    const a = axis < 0 ? axis + dims.length : axis;
    return { attributes: { axis }, extra: [], outDims: [prod(dims.slice(0, a)), prod(dims.slice(a))], out: v };
  }
  // Reshape: [2, 3, 4] -> [4, 0, -1] = [4, 3, 2] (0 copies dimension 1, -1 is solved).
  const shape = [4, 0, -1];
  const outDims = [4, 3, 2];
  if (since === 1) return { attributes: { shape }, extra: [], outDims, out: v };
  const attributes = since >= 14 ? { allowzero: 0 } : {};
  return {
    attributes, outDims, out: v,
    extra: [rawTensor('shape', 'int64', [3], { bytes: new Uint8Array(BigInt64Array.from(shape.map(BigInt)).buffer) })],
  };
}

function model({ op, since, type, dims, v, c, encoding }) {
  const dataFed = encoding === 'raw';
  const inputs = [];
  const initializers = [];
  if (dataFed) inputs.push(valueInfo('data', type, ['n', ...dims.slice(1)]));
  else initializers.push(typedTensor('data', type, dims, v));
  for (const x of c.extra) {
    if (c.extraFed) inputs.push(valueInfo(x.name, x.dataType === DT.INT32 ? 'int32' : 'int64', x.dims.map(Number)));
    else initializers.push(x);
  }
  const node = create(NodeProtoSchema, {
    name: `${op.toLowerCase()}_node`, opType: op, input: ['data', ...c.extra.map((x) => x.name)], output: ['out'],
    attribute: Object.entries(c.attributes).map(([k, val]) => attribute(k, val)),
  });
  const graph = create(GraphProtoSchema, {
    name: `${op}_${since}_${type}`, node: [node], input: inputs, initializer: initializers,
    output: [valueInfo('out', type, null)],
  });
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 10n, producerName: 'onnx-wasm tests', graph,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(since) })],
  }));
}

// Writes every folder under `root`. Returns [{ op, since, type, encoding, name, dir }].
export function generateModels(root) {
  const out = [];
  const dims = [2, 3, 4];
  for (const [op, versions] of Object.entries(SPEC)) {
    for (const [since, list] of versions) {
      for (const type of parseTypes(list)) {
        const v = values(type, prod(dims));
        const c = caseFor(op, since, type, dims, v);
        for (const encoding of ['raw', 'typed']) {
          const name = `test_${op.toLowerCase()}_${since}_${type}_${encoding}`;
          const dir = join(root, name);
          mkdirSync(join(dir, 'test_data_set_0'), { recursive: true });
          writeFileSync(join(dir, 'model.onnx'), model({ op, since, type, dims, v, c, encoding }));
          const feeds = [];
          if (encoding === 'raw') feeds.push(rawTensor('data', type, dims, v));
          if (c.extraFed) feeds.push(...c.extra);
          feeds.forEach((t, k) => writeFileSync(join(dir, 'test_data_set_0', `input_${k}.pb`), toBinary(TensorProtoSchema, t)));
          writeFileSync(join(dir, 'test_data_set_0', 'output_0.pb'), toBinary(TensorProtoSchema, rawTensor('out', type, c.outDims, c.out)));
          out.push({ op, since, type, encoding, name, dir });
        }
      }
    }
  }
  return out;
}
