// The facts of one external table, worked out once for every path a table takes (placed, loaded
// or kept in its source): element type, dims, bytes, where its bytes are (location, offset,
// declared length) and the source that holds them; and the check of that range against the
// source's size.
// @ts-check
import { ModelError } from '../generated/errors.mjs';
import { elementCount } from '../types.mjs';
import { dimsOf, elementType } from './tensor-proto.mjs';

// A table's facts, as tableFacts() works them out.
/**
 * @typedef {object} TableFacts
 * @property {string} name
 * @property {import('./onnx-proto.mjs').TensorProto} proto
 * @property {string} what names the table in messages
 * @property {import('../types.mjs').ElementType} t
 * @property {number[]} dims
 * @property {number} bytes
 * @property {string} location
 * @property {number} offset
 * @property {number | undefined} length as declared (undefined: to the end of the file)
 * @property {import('./sources.mjs').Source} source
 */

// The bytes of a numeric tensor (sub-byte types packed).
/**
 * @param {{ bits: number }} t
 * @param {readonly number[]} dims
 */
export const tableBytes = (t, dims) => Math.ceil((elementCount(dims) * t.bits) / 8);

/** @param {number} bytes */
export const sizeText = (bytes) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${bytes} bytes`);

// Where a TensorProto's external bytes are: { location, offset, length } (length: as declared,
// or undefined when the data runs to the end of the file).
/**
 * @param {import('./onnx-proto.mjs').TensorProto} proto
 * @param {string} what
 */
function externalRange(proto, what) {
  const entry = (/** @type {string} */ k) => proto.externalData.find((e) => e.key === k)?.value;
  const location = entry('location');
  if (!location) throw new ModelError(`${what} is stored externally but names no location`);
  const number = (/** @type {string} */ k) => {
    const v = entry(k);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) throw new ModelError(`${what}: external data ${k} '${v}' is not an integer >= 0`);
    return n;
  };
  return { location, offset: number('offset') ?? 0, length: number('length') };
}

// { name, proto, what, t, dims, bytes, location, offset, length, source } of an external tensor
// (`sources`: the model's ExternalData).
/**
 * @param {import('./onnx-proto.mjs').TensorProto} proto
 * @param {{ source(location: string, what: string): import('./sources.mjs').Source }} sources
 * @returns {TableFacts}
 */
export function tableFacts(proto, sources) {
  const what = `tensor '${proto.name}'`;
  const t = elementType(proto.dataType, what), dims = dimsOf(proto, what);
  if (t.name === 'string') throw new ModelError(`${what}: string tensors cannot use external data (raw bytes); keep them in the model`);
  const range = externalRange(proto, what);
  return { name: proto.name, proto, what, t, dims, bytes: tableBytes(t, dims), ...range, source: sources.source(range.location, what) };
}

// The table's shape for messages: float32 [300, 40].
/** @param {TableFacts} x */
export const shapeOf = (x) => `${x.t.name} [${x.dims.join(', ')}]`;

// Checks the table's range against its declared length and its source's size (when known
// before reading).
/** @param {TableFacts} x */
export async function checkRange(x) {
  const { what, location, offset, length, bytes, source } = x;
  const shape = `${x.t.name}, dims [${x.dims.join(', ')}]`;
  if (length !== undefined && length !== bytes)
    throw new ModelError(`${what} (${shape}) has ${length} bytes of data, expected ${bytes}`);
  let size;
  try {
    size = await source.size();
  } catch (e) {
    if (e instanceof ModelError || e?.code === 'ERR_EXTERNAL_DATA') throw e;
    throw new ModelError(`${what}: cannot read external data '${location}': ${e.message}`);
  }
  if (size !== null) {
    if (offset + bytes > size)
      throw new ModelError(`${what} (${shape}, ${bytes} bytes at offset ${offset}) needs ${offset + bytes} bytes of '${location}', which holds ${size}`);
    if (length === undefined && size - offset !== bytes)
      throw new ModelError(`${what} (${shape}) has ${size - offset} bytes of data, expected ${bytes}`);
  }
}
