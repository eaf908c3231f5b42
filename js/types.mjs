// Element types as the JS API names them, from the generated copy of src/element_types.def.
import { ELEMENT_TYPES } from './generated/constants.mjs';
import { invalidArgument } from './errors.mjs';

const BY_NAME = new Map(ELEMENT_TYPES.map((t) => [t.name, t]));
// Types indexed by id (a run's output reads its type's id; typeById is this lookup).
export const TYPES_BY_ID = [];
for (const t of ELEMENT_TYPES) TYPES_BY_ID[t.id] = t;

export const TYPE_NAMES = Object.freeze(ELEMENT_TYPES.map((t) => t.name));

export function typeByName(name) {
  const t = BY_NAME.get(name);
  if (!t) throw invalidArgument(`unknown element type '${name}'; onnx-wasm knows ${TYPE_NAMES.join(', ')}`);
  return t;
}

export function typeById(id) {
  return TYPES_BY_ID[id];
}

// The typed array class that holds this type's storage (Array for string).
export function arrayClass(t) {
  return globalThis[t.array];
}

// How many entries of arrayClass(t) hold `size` elements (sub-byte types are packed).
export function storageLength(t, size) {
  if (t.name === 'string') return size;
  const bytes = Math.ceil((size * t.bits) / 8);
  return bytes / arrayClass(t).BYTES_PER_ELEMENT;
}
