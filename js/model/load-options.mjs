// The options of InferenceSession.create() that concern loading external data, checked in one
// place: { mode, onProgress }.
import { invalidArgument } from '../errors.mjs';

export const MODES = ['auto', 'memory', 'lazy'];

export function loadingOptions(options) {
  const mode = options.externalDataMode ?? 'auto';
  if (!MODES.includes(mode)) throw invalidArgument(`options.externalDataMode must be one of ${MODES.map((m) => `'${m}'`).join(', ')}, got ${String(mode)}`);
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw invalidArgument(`options.onProgress must be a function, got ${typeof onProgress}`);
  return { mode, onProgress };
}
