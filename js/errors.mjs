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
