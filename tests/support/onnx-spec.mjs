// The ONNX operator specs as test data, written from the operator pages (not from the runtime's
// registry), element types, patterned inputs and a reference Gather: shared by the runNode
// tests and the generated-model conformance tests. Independent of the runtime except for
// making Tensors.
import { Tensor } from '../../js/index.mjs';

// The ONNX spec, as written on the operator pages (/work/shared/spec and onnx.ai). Versions 24
// and 25 of Flatten and Reshape: 24 adds float8e8m0, 25 adds int2 and uint2.
export const T_CLASSIC = 'tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(int16), tensor(int32), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint64), tensor(uint8)';
export const T_BF16 = 'tensor(bfloat16), tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(int16), tensor(int32), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint64), tensor(uint8)';
export const T_FLOAT8 = 'tensor(bfloat16), tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(float8e4m3fn), tensor(float8e4m3fnuz), tensor(float8e5m2), tensor(float8e5m2fnuz), tensor(int16), tensor(int32), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint64), tensor(uint8)';
export const T_INT4 = 'tensor(bfloat16), tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(float8e4m3fn), tensor(float8e4m3fnuz), tensor(float8e5m2), tensor(float8e5m2fnuz), tensor(int16), tensor(int32), tensor(int4), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint4), tensor(uint64), tensor(uint8)';
export const T_FLOAT4 = 'tensor(bfloat16), tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(float4e2m1), tensor(float8e4m3fn), tensor(float8e4m3fnuz), tensor(float8e5m2), tensor(float8e5m2fnuz), tensor(int16), tensor(int32), tensor(int4), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint4), tensor(uint64), tensor(uint8)';
export const T_E8M0 = 'tensor(bfloat16), tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(float4e2m1), tensor(float8e4m3fn), tensor(float8e4m3fnuz), tensor(float8e5m2), tensor(float8e5m2fnuz), tensor(float8e8m0), tensor(int16), tensor(int32), tensor(int4), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint4), tensor(uint64), tensor(uint8)';
export const T_INT2 = `${T_E8M0}, tensor(int2), tensor(uint2)`;
export const T_FLOATS = 'tensor(double), tensor(float), tensor(float16)';

export const SPEC = {
  Gather: [[1, T_CLASSIC], [11, T_CLASSIC], [13, T_BF16]],
  Flatten: [[1, T_FLOATS], [9, T_CLASSIC], [11, T_CLASSIC], [13, T_BF16], [21, T_INT4], [23, T_FLOAT4], [24, T_E8M0], [25, T_INT2]],
  Reshape: [[1, T_FLOATS], [5, T_CLASSIC], [13, T_BF16], [14, T_BF16], [19, T_FLOAT8], [21, T_INT4], [23, T_FLOAT4], [24, T_E8M0], [25, T_INT2]],
};
export const MAX_OPSET = 28;

// ONNX type names to the API's names.
export const API_NAME = { float: 'float32', double: 'float64' };
export const parseTypes = (list) => list.split(',').map((s) => /tensor\((\w+)\)/.exec(s)[1]).map((n) => API_NAME[n] ?? n);
export const ONNX_NAME = { float32: 'float', float64: 'double' };
export const onnxName = (t) => ONNX_NAME[t] ?? t;

// The version in force at an opset: the newest whose since is not above it.
export function versionAt(op, opset) {
  let v = null;
  for (const [since] of SPEC[op]) if (since <= opset) v = since;
  return v;
}
export const allowedAt = (op, since) => new Set(parseTypes(SPEC[op].find(([s]) => s === since)[1]));
export const opsetsOf = (op, since) => {
  const list = [];
  for (let o = 1; o <= MAX_OPSET; ++o) if (versionAt(op, o) === since) list.push(o);
  return list;
};

// Every element type: storage class and bits per element.
export const TYPES = {
  float32: [Float32Array, 32], float64: [Float64Array, 64], float16: [Uint16Array, 16], bfloat16: [Uint16Array, 16],
  int8: [Int8Array, 8], int16: [Int16Array, 16], int32: [Int32Array, 32], int64: [BigInt64Array, 64],
  uint8: [Uint8Array, 8], uint16: [Uint16Array, 16], uint32: [Uint32Array, 32], uint64: [BigUint64Array, 64],
  bool: [Uint8Array, 8], string: [Array, 0], complex64: [Float32Array, 64], complex128: [Float64Array, 128],
  float8e4m3fn: [Uint8Array, 8], float8e4m3fnuz: [Uint8Array, 8], float8e5m2: [Uint8Array, 8],
  float8e5m2fnuz: [Uint8Array, 8], float8e8m0: [Uint8Array, 8], int4: [Uint8Array, 4], uint4: [Uint8Array, 4],
  float4e2m1: [Uint8Array, 4], int2: [Uint8Array, 2], uint2: [Uint8Array, 2],
};
export const ALL_TYPES = Object.keys(TYPES);

// A tensor of `type` and `dims` whose element k has distinct bytes (strings 's<k>'; bool k % 2).
// Returns the tensor and its elements as comparable keys (hex bytes, or the strings).
export function patterned(type, dims, seed = 0) {
  const [Cls, bits] = TYPES[type];
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 'string') {
    const values = Array.from({ length: n }, (_, k) => `s${k + seed}`);
    return { tensor: new Tensor(type, values, dims), elements: values };
  }
  const bytes = new Uint8Array(Math.ceil((n * bits) / 8));
  for (let i = 0; i < bytes.length; ++i) bytes[i] = type === 'bool' ? (i + seed) % 2 : (i * 37 + seed * 11 + 5) & 0xff;
  const tensor = new Tensor(type, new Cls(bytes.buffer), dims);
  return { tensor, elements: bits >= 8 ? elementsOf(bytes, bits / 8) : null, bytes };
}
export function elementsOf(bytes, width) {
  const out = [];
  for (let i = 0; i < bytes.length; i += width) out.push(Buffer.from(bytes.subarray(i, i + width)).toString('hex'));
  return out;
}
export const bytesOf = (t) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
export const outputElements = (t) => (t.type === 'string' ? Array.from(t.data) : elementsOf(bytesOf(t), TYPES[t.type][1] / 8));

// Reference Gather over a flat list of elements (independent of the runtime).
export function refGather(elements, dims, indices, indexDims, axis) {
  const r = dims.length;
  const a = axis < 0 ? axis + r : axis;
  const prod = (xs) => xs.reduce((p, d) => p * d, 1);
  const outer = prod(dims.slice(0, a)), size = dims[a], inner = prod(dims.slice(a + 1));
  const out = [];
  for (let o = 0; o < outer; ++o)
    for (const raw of indices) {
      const k = Number(raw) < 0 ? Number(raw) + size : Number(raw);
      for (let j = 0; j < inner; ++j) out.push(elements[(o * size + k) * inner + j]);
    }
  return { dims: [...dims.slice(0, a), ...indexDims, ...dims.slice(a + 1)], elements: out };
}

