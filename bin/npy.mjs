// NumPy .npy files (format versions 1-3, C order) to { type, data, dims } for a Tensor.
// @ts-check
import { elementCount } from '../js/types.mjs';

/** @typedef {import('../js/index.js').TensorType} TensorType */
/** @typedef {Exclude<import('../js/index.js').TensorData, string[]>} NumericData */

/** @type {Record<string, TensorType | undefined>} */
const DESCR = {
  f4: 'float32', f8: 'float64', f2: 'float16', i1: 'int8', i2: 'int16', i4: 'int32', i8: 'int64',
  u1: 'uint8', u2: 'uint16', u4: 'uint32', u8: 'uint64', b1: 'bool', c8: 'complex64', c16: 'complex128',
};
/** @type {Record<string, { new (buffer: ArrayBuffer): NumericData, readonly BYTES_PER_ELEMENT: number }>} */
const ARRAY = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, int16: Int16Array,
  int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array,
  uint64: BigUint64Array, bool: Uint8Array, complex64: Float32Array, complex128: Float64Array,
};

/**
 * @param {Uint8Array} bytes
 * @param {string} [what] names the file in errors
 * @returns {{ type: TensorType, data: string[] | NumericData, dims: number[] }}
 */
export function parseNpy(bytes, what = '.npy file') {
  /** @type {(m: string) => never} */
  const fail = (m) => { throw new Error(`${what}: ${m}`); };
  if (bytes.length < 10 || bytes[0] !== 0x93 || String.fromCharCode(...bytes.subarray(1, 6)) !== 'NUMPY') fail('not a .npy file (no \\x93NUMPY magic)');
  const major = bytes[6];
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || !fortran || shapeText === undefined) fail(`cannot read the header ${JSON.stringify(header)}`);
  if (fortran === 'True') fail('Fortran-order arrays are not supported; save with np.ascontiguousarray');
  const dims = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const size = elementCount(dims);
  const body = bytes.subarray(start + headerLen);
  const order = descr[0], code = descr.slice(1);
  if (order === '>' && !code.endsWith('1')) fail(`big-endian data ('${descr}') is not supported`);
  if (code[0] === 'U') {   // fixed-width UTF-32 strings
    const width = Number(code.slice(1));
    /** @type {string[]} */
    const data = [];
    for (let i = 0; i < size; ++i) {
      let s = '';
      for (let j = 0; j < width; ++j) {
        const c = dv.getUint32(body.byteOffset - bytes.byteOffset + (i * width + j) * 4, true);
        if (c === 0) break;
        s += String.fromCodePoint(c);
      }
      data.push(s);
    }
    return { type: 'string', data, dims };
  }
  const type = DESCR[code];
  if (!type) fail(`dtype '${descr}' has no ONNX element type here`);
  const Cls = ARRAY[type];
  const length = type.startsWith('complex') ? size * 2 : size;
  if (body.length < length * Cls.BYTES_PER_ELEMENT) fail(`holds ${body.length} bytes of data, shape (${dims}) needs ${length * Cls.BYTES_PER_ELEMENT}`);
  const data = new Cls(Uint8Array.from(body.subarray(0, length * Cls.BYTES_PER_ELEMENT)).buffer);
  return { type, data, dims };
}

// { type, data, dims } to .npy bytes (version 1.0), for tests and for saving outputs.
/**
 * @param {{ type: string, data: NumericData, dims: readonly number[] }} tensor
 * @returns {Uint8Array}
 */
export function toNpy({ type, data, dims }) {
  const code = Object.entries(DESCR).find(([, t]) => t === type)?.[0];
  if (!code) throw new Error(`no .npy dtype for ${type}`);
  return npyBytes(`${code.endsWith('1') ? '|' : '<'}${code}`, dims, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

// A version 1.0 .npy file: the header for dtype `descr` and `dims`, then `body`.
/**
 * @param {string} descr
 * @param {readonly number[]} dims
 * @param {Uint8Array} body
 * @returns {Uint8Array}
 */
function npyBytes(descr, dims, body) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims.join(', ')}${dims.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const out = new Uint8Array(10 + header.length + body.byteLength);
  out.set([0x93, ...new TextEncoder().encode('NUMPY'), 1, 0, header.length & 255, header.length >> 8]);
  out.set(new TextEncoder().encode(header), 10);
  out.set(body, 10 + header.length);
  return out;
}

// A run's output as .npy bytes, for `onnx-wasm run --output`: { bytes, note }. Types NumPy has
// are written as themselves, strings as fixed-width UTF-32 ('<U'); the others NumPy does not have
// are written as what holds them, and `note` says so: bfloat16 and the 8-bit floats as their bits
// (uint16, uint8), int4/int2 as int8 values, uint4/uint2 as uint8 values, float4e2m1 as its
// 4 bits in a uint8.
/**
 * @param {{ type: string, data: string[] | NumericData, dims: readonly number[] }} t
 * @returns {{ bytes: Uint8Array, note: string | null }}
 */
export function npyOf({ type, data, dims }) {
  if (type === 'string') {
    const strings = /** @type {string[]} */ (data);
    const points = strings.map((s) => Array.from(s, (c) => /** @type {number} */ (c.codePointAt(0))));
    const width = Math.max(1, ...points.map((p) => p.length));
    const body = new Uint32Array(strings.length * width);
    points.forEach((p, i) => body.set(p, i * width));
    return { bytes: npyBytes(`<U${width}`, dims, new Uint8Array(body.buffer)), note: null };
  }
  const numeric = /** @type {NumericData} */ (data);
  const raw = new Uint8Array(numeric.buffer, numeric.byteOffset, numeric.byteLength);
  if (Object.values(DESCR).includes(/** @type {TensorType} */ (type))) return { bytes: toNpy({ type, data: numeric, dims }), note: null };
  if (type === 'bfloat16') return { bytes: npyBytes('<u2', dims, raw), note: 'bfloat16 bits as uint16' };
  if (type.startsWith('float8')) return { bytes: npyBytes('|u1', dims, raw), note: `${type} bits as uint8` };
  const bits = /^u?int4$|^float4/.test(type) ? 4 : /^u?int2$/.test(type) ? 2 : 0;
  if (!bits) throw new Error(`no .npy form for ${type}`);
  const size = elementCount(dims), signed = type.startsWith('int');
  const values = new Uint8Array(size);
  for (let i = 0; i < size; ++i) {
    const v = (raw[(i * bits) >> 3] >> ((i * bits) & 7)) & ((1 << bits) - 1);
    values[i] = signed && v >= 1 << (bits - 1) ? v - (1 << bits) + 256 : v;   // (int8's two's complement)
  }
  return { bytes: npyBytes(signed ? '|i1' : '|u1', dims, values), note: signed ? `${type} values as int8` : type.startsWith('float') ? `${type} bits as uint8` : `${type} values as uint8` };
}
