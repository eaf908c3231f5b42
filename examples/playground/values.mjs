// Text <-> tensor values for the playground, for every ONNX element type: parse what the user
// typed (dims with symbols, values with ranges and nested brackets) into the storage that
// `new Tensor(type, data, dims)` takes, and format a tensor's data for display. No library
// internals: the storage rules are the ones README.md documents.

// A parse error that belongs to one field of the form.
export class FieldError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

const INTS = {
  int8: [Int8Array, -128, 127], uint8: [Uint8Array, 0, 255], int16: [Int16Array, -32768, 32767],
  uint16: [Uint16Array, 0, 65535], int32: [Int32Array, -2147483648, 2147483647], uint32: [Uint32Array, 0, 4294967295],
};
const BIGS = { int64: [BigInt64Array, -(2n ** 63n), 2n ** 63n - 1n], uint64: [BigUint64Array, 0n, 2n ** 64n - 1n] };
const FLOATS = { float32: Float32Array, float64: Float64Array };
const COMPLEX = { complex64: Float32Array, complex128: Float64Array };
const HALF = new Set(['float16', 'bfloat16']);
const BYTE_CODES = new Set(['float8e4m3fn', 'float8e4m3fnuz', 'float8e5m2', 'float8e5m2fnuz', 'float8e8m0']);
// Sub-byte types: elements typed one by one, packed as ONNX packs them (first element in the low bits).
const PACKED = {
  int4: { bits: 4, lo: -8, hi: 7 }, uint4: { bits: 4, lo: 0, hi: 15 }, float4e2m1: { bits: 4, lo: 0, hi: 15 },
  int2: { bits: 2, lo: -2, hi: 1 }, uint2: { bits: 2, lo: 0, hi: 3 },
};

// How values of a type are written, for the hint under the field.
export function valueHint(type) {
  if (type === 'string') return 'strings: a, b, c or "quoted, with commas"';
  if (type === 'bool') return 'true / false (or 1 / 0)';
  if (FLOATS[type] || HALF.has(type)) return `numbers${HALF.has(type) ? ` (rounded to ${type})` : ''}; a..b is a range`;
  if (COMPLEX[type]) return 'real, imaginary pairs: 1, 0, 2, -1 is [1+0i, 2-1i]';
  if (BYTE_CODES.has(type)) return `raw ${type} byte codes 0..255`;
  if (PACKED[type]) return type === 'float4e2m1' ? 'raw 4-bit codes 0..15 (packed two per byte)'
    : `integers in [${PACKED[type].lo}, ${PACKED[type].hi}] (packed ${8 / PACKED[type].bits} per byte)`;
  return 'integers; a..b is a range (inclusive)';
}

// Tokens of a values field: numbers, words, "quoted strings", brackets and commas ignored.
function tokens(text) {
  const out = [];
  const re = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,[\]]+/g;
  for (const m of String(text).matchAll(re)) out.push(m[0]);
  return out;
}

// "3, 2" / "[batch, 16, 64]" / "n x 4" / "?" -> [3, 2] / ['batch', 16, 64] / ['n', 4] / [null].
// An empty field is a scalar ([]); "*" alone is an unknown rank (null).
export function parseDims(text, field) {
  const s = String(text).trim();
  if (s === '*') return null;
  const parts = s.replace(/^\[|\]$/g, '').split(/[\s,×x]+/).filter(Boolean);
  return parts.map((p, i) => {
    if (p === '?') return null;
    if (/^\d+$/.test(p)) return Number(p);
    if (/^[A-Za-z_][\w.]*$/.test(p)) return p;
    throw new FieldError(field, `dims: '${p}' (dimension ${i}) is neither a size >= 0, a symbolic name nor ?`);
  });
}

function parseInteger(tok, field, i) {
  if (!/^[+-]?\d+$/.test(tok)) throw new FieldError(field, `values: '${tok}' (value ${i}) is not an integer`);
  return BigInt(tok);
}

// Expands a..b ranges (inclusive, step 1 or -1) for numeric types.
function expandRanges(toks, field, numeric) {
  if (!numeric) return toks;
  const out = [];
  for (const t of toks) {
    const m = /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(t);
    if (!m) { out.push(t); continue; }
    const a = Number(m[1]), b = Number(m[2]);
    if (Math.abs(b - a) > 1e6) throw new FieldError(field, `values: range ${t} has more than a million values`);
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? 1 : -1) out.push(String(v));
  }
  return out;
}

// The elements of a values field, checked for the type: numbers, bigints, booleans, strings, or
// [re, im] pairs for complex types. Returns a plain array of elements.
export function parseElements(type, text, field) {
  const numeric = type !== 'string' && type !== 'bool';
  const toks = expandRanges(tokens(text), field, numeric);
  const bad = (i, why) => new FieldError(field, `values: '${toks[i]}' (value ${i}) ${why}`);
  if (type === 'string') {
    return toks.map((t) => {
      if (t.startsWith('"')) return JSON.parse(t);
      if (t.startsWith("'")) return t.slice(1, -1).replace(/\\(.)/g, '$1');
      return t;
    });
  }
  if (type === 'bool') {
    return toks.map((t, i) => {
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      throw bad(i, 'is not true, false, 1 or 0');
    });
  }
  if (BIGS[type]) {
    const [, lo, hi] = BIGS[type];
    return toks.map((t, i) => {
      const v = parseInteger(t, field, i);
      if (v < lo || v > hi) throw bad(i, `is outside ${type}'s range`);
      return v;
    });
  }
  const parseNum = (t, i) => {
    if (/^[+-]?inf(inity)?$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/i.test(t)) return NaN;
    const v = Number(t);
    if (Number.isNaN(v)) throw bad(i, 'is not a number');
    return v;
  };
  if (FLOATS[type] || HALF.has(type)) return toks.map(parseNum);
  if (COMPLEX[type]) {
    const vals = toks.map(parseNum);
    if (vals.length % 2) throw new FieldError(field, `values: ${type} takes real, imaginary pairs; got ${vals.length} numbers`);
    const out = [];
    for (let i = 0; i < vals.length; i += 2) out.push([vals[i], vals[i + 1]]);
    return out;
  }
  const [lo, hi] = INTS[type] ? [INTS[type][1], INTS[type][2]] : BYTE_CODES.has(type) ? [0, 255] : PACKED[type] ? [PACKED[type].lo, PACKED[type].hi] : [-Infinity, Infinity];
  return toks.map((t, i) => {
    const v = Number(parseInteger(t, field, i));
    if (v < lo || v > hi) throw bad(i, `is outside [${lo}, ${hi}] for ${type}`);
    return v;
  });
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

// float -> IEEE half bits, round to nearest even.
function toHalfBits(v) {
  f32[0] = v;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1), half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  return sign | h;
}

function fromHalfBits(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >>> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function toBfloat16Bits(v) {
  f32[0] = v;
  const x = u32[0];
  if (Number.isNaN(v)) return 0x7fc0;
  const round = ((x >>> 16) & 1) + 0x7fff;
  return ((x + round) >>> 16) & 0xffff;
}

function fromBfloat16Bits(b) {
  u32[0] = b << 16;
  return f32[0];
}

// Number of elements of concrete dims.
export const sizeOf = (dims) => dims.reduce((a, b) => a * b, 1);

// The data array `new Tensor(type, data, dims)` takes for these elements.
export function toStorage(type, elements) {
  if (type === 'string') return elements;
  if (type === 'bool') return Uint8Array.from(elements, (b) => (b ? 1 : 0));
  if (BIGS[type]) return BIGS[type][0].from(elements);
  if (FLOATS[type]) return FLOATS[type].from(elements);
  if (type === 'float16') return Uint16Array.from(elements, toHalfBits);
  if (type === 'bfloat16') return Uint16Array.from(elements, toBfloat16Bits);
  if (COMPLEX[type]) return COMPLEX[type].from(elements.flat());
  if (INTS[type]) return INTS[type][0].from(elements);
  if (BYTE_CODES.has(type)) return Uint8Array.from(elements);
  if (PACKED[type]) {
    const { bits } = PACKED[type];
    const per = 8 / bits, mask = (1 << bits) - 1;
    const out = new Uint8Array(Math.ceil(elements.length / per));
    elements.forEach((v, i) => { out[(i / per) | 0] |= (v & mask) << ((i % per) * bits); });
    return out;
  }
  return elements;   // a type this page does not know: the library reads plain arrays
}

const num = (v, digits) => {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (Object.is(v, -0)) return '-0';
  return String(Number(v.toPrecision(digits)));
};

// Display strings of the first `limit` elements of a tensor's data.
export function formatElements(type, data, count, limit = Infinity) {
  const n = Math.min(count, limit);
  const out = new Array(n);
  for (let i = 0; i < n; ++i) {
    if (type === 'string') out[i] = JSON.stringify(data[i]);
    else if (type === 'bool') out[i] = data[i] ? 'true' : 'false';
    else if (type === 'float32') out[i] = num(data[i], 7);
    else if (type === 'float64') out[i] = num(data[i], 15);
    else if (type === 'float16') out[i] = num(fromHalfBits(data[i]), 5);
    else if (type === 'bfloat16') out[i] = num(fromBfloat16Bits(data[i]), 4);
    else if (COMPLEX[type]) {
      const re = data[2 * i], im = data[2 * i + 1], d = type === 'complex64' ? 7 : 15;
      out[i] = `${num(re, d)}${im < 0 || Object.is(im, -0) ? '-' : '+'}${num(Math.abs(im), d)}i`;
    } else if (PACKED[type]) {
      const { bits, hi } = PACKED[type];
      const per = 8 / bits, mask = (1 << bits) - 1;
      let v = (data[(i / per) | 0] >> ((i % per) * bits)) & mask;
      if (PACKED[type].lo < 0 && v > hi) v -= 1 << bits;
      out[i] = String(v);
    } else out[i] = String(data[i]);
  }
  return out;
}

// Nested brackets following dims, one line per outer row: [[5, 6],\n [1, 2]].
export function nest(strings, dims, total) {
  if (dims.length === 0) return strings[0] ?? '';
  if (strings.length < total) return `[${strings.join(', ')}, … ${total - strings.length} more]`;
  let pos = 0;
  const rec = (d, indent) => {
    if (d === dims.length - 1) {
      const row = strings.slice(pos, pos + dims[d]);
      pos += dims[d];
      return `[${row.join(', ')}]`;
    }
    const parts = [];
    for (let k = 0; k < dims[d]; ++k) parts.push(rec(d + 1, indent + ' '));
    const sep = d === dims.length - 2 ? `,\n${indent} ` : `,\n\n${indent} `;
    return `[${parts.join(sep)}]`;
  };
  return rec(0, '');
}
