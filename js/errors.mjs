import { OnnxWasmError } from './errors-base.mjs';
import { ERROR_CLASSES } from './generated/errors.mjs';

export { OnnxWasmError };
export * from './generated/errors.mjs';

// { code, message } from the binding (a C++ Status) to the matching Error subclass.
export function errorFromStatus({ code, message }) {
  const Cls = ERROR_CLASSES[code];
  if (!Cls) return new OnnxWasmError(`${code}: ${message}`);
  return new Cls(message);
}

export function invalidArgument(message, options) {
  return new ERROR_CLASSES.ERR_INVALID_ARGUMENT(message, options);
}
