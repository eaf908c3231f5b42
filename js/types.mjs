// Element types as the JS API names them, from the generated copy of src/element_types.def.
// @ts-check
import { ELEMENT_TYPES } from './generated/constants.mjs';
import { invalidArgument } from './errors.mjs';

/**
 * An element type's record: { name, onnxName, id (TensorProto.DataType), bits, array (the name
 * of the typed array class of its storage, 'Array' for strings) }.
 * @typedef {(typeof ELEMENT_TYPES)[number]} ElementType
 */

/** @type {Map<string, ElementType>} */
const BY_NAME = new Map(ELEMENT_TYPES.map((t) => [t.name, t]));
// Types indexed by id (a run's output reads its type's id; typeById is this lookup).
/** @type {ElementType[]} */
export const TYPES_BY_ID = [];
for (const t of ELEMENT_TYPES) TYPES_BY_ID[t.id] = t;

export const TYPE_NAMES = Object.freeze(ELEMENT_TYPES.map((t) => t.name));

/**
 * @param {string} name
 * @returns {ElementType}
 */
export function typeByName(name) {
  const t = BY_NAME.get(name);
  if (!t) throw invalidArgument(`unknown element type '${name}'; onnx-wasm knows ${TYPE_NAMES.join(', ')}`);
  return t;
}

/**
 * @param {number} id
 * @returns {ElementType | undefined} (undefined for an id ONNX does not define)
 */
export function typeById(id) {
  return TYPES_BY_ID[id];
}

// The typed array class that holds this type's storage (Array for string).
/**
 * @param {ElementType} t
 * @returns {any} (a typed array constructor, or Array: callers tell them apart by the type's name)
 */
export function arrayClass(t) {
  return /** @type {any} */ (globalThis)[t.array];
}

// The element count of dims: their product (0 when a dim is 0, 1 for a scalar's []). The one
// such product in js/ and bin/; C++ counts with DimProduct (src/checked_mul.h).
/**
 * @param {readonly number[]} dims
 * @returns {number}
 */
export function elementCount(dims) {
  return dims.reduce((a, b) => a * b, 1);
}

// How many entries of arrayClass(t) hold `size` elements (sub-byte types are packed).
/**
 * @param {ElementType} t
 * @param {number} size
 * @returns {number}
 */
export function storageLength(t, size) {
  if (t.name === 'string') return size;
  const bytes = Math.ceil((size * t.bits) / 8);
  return bytes / arrayClass(t).BYTES_PER_ELEMENT;
}
