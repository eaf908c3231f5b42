// The options of InferenceSession.create() that concern loading external data, checked in one
// place: { mode, onProgress, cache, cacheKey, keepPartial, cacheRowLayout }.
// @ts-check
import { invalidArgument } from '../errors.mjs';

export const MODES = ['auto', 'memory', 'lazy'];
export const CACHES = ['opfs'];

/** @param {import('../index.js').SessionOptions} options (the caller's: each checked here) */
export function loadingOptions(options) {
  const mode = options.externalDataMode ?? 'auto';
  if (!MODES.includes(mode)) throw invalidArgument(`options.externalDataMode must be one of ${MODES.map((m) => `'${m}'`).join(', ')}, got ${String(mode)}`);
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw invalidArgument(`options.onProgress must be a function, got ${typeof onProgress}`);
  const cache = options.cache;
  if (cache !== undefined && !CACHES.includes(cache)) throw invalidArgument(`options.cache must be one of ${CACHES.map((m) => `'${m}'`).join(', ')}, got ${String(cache)}`);
  const cacheKey = options.cacheKey;
  if (cacheKey !== undefined && typeof cacheKey !== 'string') throw invalidArgument(`options.cacheKey must be a string, got ${typeof cacheKey}`);
  if (cacheKey !== undefined && cache === undefined) throw invalidArgument("options.cacheKey needs options.cache ('opfs')");
  const keepPartial = options.keepPartial ?? false;
  if (typeof keepPartial !== 'boolean') throw invalidArgument(`options.keepPartial must be a boolean, got ${typeof keepPartial}`);
  if (keepPartial && cache === undefined) throw invalidArgument("options.keepPartial needs options.cache ('opfs')");
  const cacheRowLayout = options.cacheRowLayout ?? false;
  if (typeof cacheRowLayout !== 'boolean') throw invalidArgument(`options.cacheRowLayout must be a boolean, got ${typeof cacheRowLayout}`);
  if (cacheRowLayout && cache === undefined) throw invalidArgument("options.cacheRowLayout needs options.cache ('opfs')");
  return { mode, onProgress, cache, cacheKey, keepPartial, cacheRowLayout };
}
