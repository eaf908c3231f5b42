// The CLI's values as text (valueText, preview: `run`'s inputs and outputs, `inspect`'s small
// tensors), and `onnx-wasm run --data`: an output against an expected tensor (an output_K.pb
// file), element by element. Elements are compared by their bits, as the conformance tests compare them
// (tests/support/onnx-test-dir.mjs): onnx-wasm's ops move data and never compute a value, so a
// right output is exact. A difference is described by its index and both values.
// @ts-check
import { elementCount, typeByName } from '../js/types.mjs';

/** @typedef {import('../js/index.js').Tensor} Tensor */

/** @param {Tensor} t */
const bytesOf = (t) => {
  const d = /** @type {Exclude<import('../js/index.js').TensorData, string[]>} */ (t.data);
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
};

// A float32 as the shortest decimal that reads back as the same float32.
/** @param {number} v */
function float32Text(v) {
  if (!Number.isFinite(v)) return String(v);
  for (let p = 1; p < 9; ++p) if (Math.fround(Number(v.toPrecision(p))) === v) return String(Number(v.toPrecision(p)));
  return String(Number(v.toPrecision(9)));
}

// float16 bits to its value.
/** @param {number} h */
function halfValue(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

// The code of element i of a tensor of `bits`-bit elements (fewer than 8), packed lowest bits
// first.
/**
 * @param {Tensor} t
 * @param {number} i
 * @param {number} bits
 */
const packedCode = (t, i, bits) => (bytesOf(t)[(i * bits) >> 3] >> ((i * bits) & 7)) & ((1 << bits) - 1);

// bfloat16 bits to its value.
/** @param {number} b */
const bfloat16Value = (b) => new Float32Array(new Uint32Array([b << 16]).buffer)[0];

// Element i of tensor t as a reader wants it (the CLI's previews): numbers as numbers, floats to 6
// significant digits, float16 and bfloat16 decoded, 4-bit and 2-bit codes as their integers
// (signed for int4 and int2); float8 and float4 by their bits (elementText's form).
/**
 * @param {Tensor} t
 * @param {number} i
 */
export function valueText(t, i) {
  const d = t.data;
  /** @param {number} v */
  const short = (v) => String(Number.isInteger(v) || !Number.isFinite(v) ? v : Number(v.toPrecision(6)));
  switch (t.type) {
    case 'float32': case 'float64': return short(/** @type {number} */ (d[i]));
    case 'float16': return short(halfValue(/** @type {number} */ (d[i])));
    case 'bfloat16': return short(bfloat16Value(/** @type {number} */ (d[i])));
    case 'int4': case 'uint4': case 'int2': case 'uint2': {
      const bits = typeByName(t.type).bits, code = packedCode(t, i, bits);
      return String(t.type.startsWith('int') && code >= 1 << (bits - 1) ? code - (1 << bits) : code);
    }
    default: return elementText(t, i);
  }
}

// The first n elements of t as valueText writes them, and how many there are when not all are shown.
/**
 * @param {Tensor} t
 * @param {number} [n] how many entries to show
 */
export function preview(t, n = 8) {
  // (elements, not storage entries: a 4-bit tensor's byte holds two; valueText decodes each)
  const count = elementCount(t.dims);
  const vals = Array.from({ length: Math.min(n, count) }, (_, i) => valueText(t, i));
  return `[${vals.join(', ')}${count > n ? `, ... (${count} ${t.type === 'string' ? 'strings' : 'entries'})` : ''}]`;
}

// Element i of tensor t as text: numbers as numbers (float16 and bfloat16 decoded), other floats
// of fewer than 16 bits and sub-byte values by their bits.
/**
 * @param {Tensor} t
 * @param {number} i
 */
export function elementText(t, i) {
  const d = t.data;
  switch (t.type) {
    case 'string': return JSON.stringify(d[i]);
    case 'float32': return float32Text(/** @type {number} */ (d[i]));
    case 'float64': return String(d[i]);
    case 'float16': return `${float32Text(halfValue(/** @type {number} */ (d[i])))} (bits 0x${d[i].toString(16).padStart(4, '0')})`;
    case 'bfloat16': return `${float32Text(bfloat16Value(/** @type {number} */ (d[i])))} (bits 0x${d[i].toString(16).padStart(4, '0')})`;
    case 'complex64': return `(${float32Text(/** @type {number} */ (d[2 * i]))}, ${float32Text(/** @type {number} */ (d[2 * i + 1]))})`;
    case 'complex128': return `(${d[2 * i]}, ${d[2 * i + 1]})`;
    default: {
      const bits = typeByName(t.type).bits;
      if (bits >= 8 && !t.type.startsWith('float')) return String(d[i]);
      const v = bits >= 8 ? bytesOf(t)[i] : packedCode(t, i, bits);
      return `bits 0x${v.toString(16)}`;
    }
  }
}

// The index of element `flat` in dims: [i0, i1, ...].
/**
 * @param {readonly number[]} dims
 * @param {number} flat
 */
function indexOf(dims, flat) {
  const index = new Array(dims.length).fill(0);
  for (let k = dims.length - 1; k >= 0; --k) {
    index[k] = flat % dims[k];
    flat = Math.floor(flat / dims[k]);
  }
  return index;
}

// null when `got` equals `want` (type, dims and every element's bits), or what differs first,
// as the end of "output 'y' differs from ...": "output_0.pb at index [0, 2] (...): got 1, expected 2".
/**
 * @param {Tensor} got
 * @param {Tensor} want
 * @param {string} file names `want` in the message
 * @returns {string | null}
 */
export function compareTensors(got, want, file) {
  if (got.type !== want.type || got.dims.join() !== want.dims.join())
    return `${file}: it is ${got.type} [${got.dims.join(', ')}], ${file} holds ${want.type} [${want.dims.join(', ')}]`;
  const size = got.size;
  let differs;
  if (got.type === 'string') {
    differs = (/** @type {number} */ i) => got.data[i] !== want.data[i];
  } else {
    const bits = typeByName(got.type).bits, a = bytesOf(got), b = bytesOf(want);
    if (bits >= 8) {
      const w = bits / 8;
      differs = (/** @type {number} */ i) => {
        for (let j = i * w; j < (i + 1) * w; ++j) if (a[j] !== b[j]) return true;
        return false;
      };
    } else {
      const mask = (1 << bits) - 1;
      differs = (/** @type {number} */ i) => ((a[(i * bits) >> 3] ^ b[(i * bits) >> 3]) >> ((i * bits) & 7)) & mask;
    }
  }
  for (let i = 0; i < size; ++i) {
    if (differs(i)) return `${file} at index [${indexOf(got.dims, i).join(', ')}] (element ${i} of ${size}): got ${elementText(got, i)}, expected ${elementText(want, i)}`;
  }
  return null;
}
