// TensorProto -> Tensor, for every element type in every encoding ONNX allows: raw_data
// (little-endian; viewed in place when aligned, copied only when not), the typed fields, and
// external data (the caller resolves location/offset/length to bytes). Protos are decoded by
// onnx-proto.mjs.
// @ts-check
import { ModelError } from '../generated/errors.mjs';
import { Tensor } from '../tensor.mjs';
import { arrayClass, elementCount, storageLength, typeById } from '../types.mjs';
import { decodeTensor } from './onnx-proto.mjs';

/** @typedef {import('./onnx-proto.mjs').TensorProto} TensorProto */
/** @typedef {import('../types.mjs').ElementType} ElementType */

const utf8 = new TextDecoder();

/** @param {string} message */
export function modelError(message) {
  return new ModelError(message);
}

// The ONNX element type id of a proto to this package's type record, or a ModelError.
/**
 * @param {number} id
 * @param {string} what names the tensor in the error
 * @returns {ElementType}
 */
export function elementType(id, what) {
  const t = typeById(id);
  if (!t) throw modelError(`${what} has element type ${id}, which ONNX does not define (or is undefined)`);
  return t;
}

/**
 * @param {{ dims: readonly bigint[] }} proto
 * @param {string} what names the tensor in the error
 * @returns {number[]}
 */
export function dimsOf(proto, what) {
  return Array.from(proto.dims, (d, i) => {
    const n = Number(d);
    if (!Number.isSafeInteger(n) || n < 0) throw modelError(`${what} has dimension ${i} = ${String(d)}; dimensions must be integers >= 0`);
    return n;
  });
}

// The typed field that holds a type's values when raw_data is not used (onnx.proto's comments).
/**
 * @param {ElementType} t
 * @param {TensorProto} proto
 * @param {number} length entries of the field
 * @param {string} what
 */
function fromTypedField(t, proto, length, what) {
  const Cls = arrayClass(t);
  /**
   * @template {readonly unknown[]} F
   * @param {F} field
   * @param {number} n
   * @returns {F}
   */
  const need = (field, n) => {
    if (field.length !== n) throw modelError(`${what} (${t.name}) holds ${field.length} values in its typed field, expected ${n}`);
    return field;
  };
  switch (t.name) {
    case 'float32': case 'complex64':
      return Float32Array.from(need(proto.floatData, length));
    case 'float64': case 'complex128':
      return Float64Array.from(need(proto.doubleData, length));
    case 'int64':
      return BigInt64Array.from(need(proto.int64Data, length));
    case 'uint32': case 'uint64':
      return Cls.from(need(proto.uint64Data, length), (/** @type {bigint} */ v) => (Cls === BigUint64Array ? BigInt.asUintN(64, BigInt(v)) : Number(v)));
    case 'string':
      return Array.from(need(proto.stringData, length), (b) => utf8.decode(b));
    default:
      // int8/16/32, uint8/16, bool, and the bits of float16, bfloat16, float8 and packed
      // sub-byte types (one packed byte per int32) are in int32_data.
      return Cls.from(need(proto.int32Data, length), (/** @type {number} */ v) => v);
  }
}

// A Tensor (in wasm memory) from a TensorProto. `external(location, offset, length, what)`
// returns the bytes of externally stored data.
/**
 * @param {TensorProto} proto
 * @param {{ external?: (location: string, offset: number, length: number | undefined, what: string) => Uint8Array }} [options]
 * @returns {Tensor}
 */
export function tensorFromProto(proto, options = {}) {
  const { type, data, dims } = tensorDataFromProto(proto, options);
  return new Tensor(type.name, data, dims);
}

// The type, data (a typed array in the type's storage, or strings) and dims of a TensorProto,
// in JS memory: what tensorFromProto makes a Tensor of, and a TENSOR attribute's value.
/**
 * @param {TensorProto} proto
 * @param {{ external?: (location: string, offset: number, length: number | undefined, what: string) => Uint8Array }} [options]
 * @returns {{ type: ElementType, data: import('../index.js').TensorData, dims: number[] }}
 */
export function tensorDataFromProto(proto, { external } = {}) {
  const what = `tensor '${proto.name}'`;
  const t = elementType(proto.dataType, what);
  const dims = dimsOf(proto, what);
  const size = elementCount(dims);
  const length = storageLength(t, size);
  const Cls = arrayClass(t);
  let bytes = null;
  if (proto.dataLocation === 1) {   // EXTERNAL
    const entry = (/** @type {string} */ k) => proto.externalData.find((e) => e.key === k)?.value;
    const location = entry('location');
    if (!location) throw modelError(`${what} is stored externally but names no location`);
    if (!external) throw modelError(`${what} is stored in external file '${location}': pass the file's bytes in options.externalData`);
    bytes = external(location, Number(entry('offset') ?? 0), entry('length') === undefined ? undefined : Number(entry('length')), what);
  } else if (proto.rawData.length > 0 || (t.name !== 'string' && length > 0 && noTypedData(proto))) {
    bytes = proto.rawData;
  }
  let data;
  if (bytes) {
    if (t.name === 'string') throw modelError(`${what}: string tensors cannot use raw_data`);
    const expected = length * Cls.BYTES_PER_ELEMENT;
    if (bytes.length !== expected)
      throw modelError(`${what} (${t.name}, dims [${dims.join(', ')}]) has ${bytes.length} bytes of data, expected ${expected}`);
    data = bytes.byteOffset % Cls.BYTES_PER_ELEMENT === 0
      ? new Cls(bytes.buffer, bytes.byteOffset, length)
      : new Cls(Uint8Array.from(bytes).buffer, 0, length);   // a copy (Buffer#slice would not copy)
  } else {
    data = fromTypedField(t, proto, t.name === 'string' ? size : typedLength(t, size), what);
  }
  return { type: t, data, dims };
}

/** @param {TensorProto} p */
function noTypedData(p) {
  return !(p.floatData.length || p.int32Data.length || p.int64Data.length || p.doubleData.length ||
    p.uint64Data.length || p.stringData.length);
}

// Entries of the typed field: elements, pairs for complex, packed bytes for sub-byte types.
/**
 * @param {ElementType} t
 * @param {number} size
 */
function typedLength(t, size) {
  if (t.name.startsWith('complex')) return size * 2;
  if (t.bits < 8) return Math.ceil((size * t.bits) / 8);
  return size;
}

// A serialized TensorProto (an input_K.pb / output_K.pb file of ONNX's test data).
/**
 * @param {Uint8Array} bytes
 * @returns {Promise<{ name: string, tensor: Tensor }>}
 */
export async function tensorFromProtoBytes(bytes) {
  let proto;
  try {
    proto = decodeTensor(bytes);
  } catch (e) {
    throw modelError(`cannot parse a TensorProto: ${e.message}`);
  }
  return { name: proto.name, tensor: tensorFromProto(proto) };
}
