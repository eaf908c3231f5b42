// The JS half of the wasm boundary's one failure rule (bindings/embind.cpp): a call that can fail
// returns its result or the failure { code, message } (the code as in src/status_codes.def), and
// check() throws the latter as the typed Error of its code. The per-run calls, with integers in
// and out (nodeRunHandle, tensorInfoAddress, tensorCreateHandle), return 0 instead, and their
// callers then make the call that does the same work, through check().
// @ts-check
import { errorFromStatus } from './errors.mjs';

/** @typedef {import('./wasm-module.mjs').Failure} Failure */

/**
 * @template T
 * @param {T | Failure} r
 * @returns {T}
 */
export function check(r) {
  // (read as a Failure to tell whether it is one)
  if (typeof r === 'object' && r !== null && typeof /** @type {Failure} */ (r).code === 'string' && typeof /** @type {Failure} */ (r).message === 'string') throw errorFromStatus(/** @type {Failure} */ (r));
  return /** @type {T} */ (r);
}
