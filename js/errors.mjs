// @ts-check
import { OnnxWasmError } from './errors-base.mjs';
import { ERROR_CLASSES } from './generated/errors.mjs';

export { OnnxWasmError };
export * from './generated/errors.mjs';

// { code, message } from the binding (a C++ Status) to the matching Error subclass.
/**
 * @param {import('./wasm-module.mjs').Failure} failure
 * @returns {OnnxWasmError}
 */
export function errorFromStatus({ code, message }) {
  // (any string the binding sends: one the table lacks still gives an error, below)
  const Cls = /** @type {Record<string, (typeof ERROR_CLASSES)[keyof typeof ERROR_CLASSES] | undefined>} */ (ERROR_CLASSES)[code];
  if (!Cls) return new OnnxWasmError(`${code}: ${message}`);
  return new Cls(message);
}

/**
 * @param {string} message
 * @param {ErrorOptions} [options]
 */
export function invalidArgument(message, options) {
  return new ERROR_CLASSES.ERR_INVALID_ARGUMENT(message, options);
}

// A value the caller gave, as a message shows it: numbers as they are, anything else with its JS
// type ("the string '3'", "the bigint 3n"), so that "data[0] is the string '3'" does not read as
// if the number 3 were refused.
/** @param {unknown} v */
export function describeValue(v) {
  if (typeof v === 'number' || v === null || v === undefined) return String(v);
  if (typeof v === 'string') return `the string '${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
  if (typeof v === 'bigint') return `the bigint ${v}n`;
  if (typeof v === 'boolean') return `the boolean ${v}`;
  if (typeof v === 'object') return `an object (${Object.getPrototypeOf(v)?.constructor?.name ?? 'null prototype'})`;
  return `a ${typeof v}`;
}
