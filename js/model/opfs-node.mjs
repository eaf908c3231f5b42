// What Node's bundles (dist/index.mjs and dist/index.cjs, scripts/build-node.mjs) take in place of
// model-cache.mjs and opfs-source.mjs, the OPFS cache. Node, Deno and Bun have no origin private
// file system, so the cache never starts there: create(..., { cache: 'opfs' }) and each method of
// modelCache fail with the error js/ gives there (opfs-missing.mjs, in these bundles too). Left
// out, the cache's code is not parsed at every import of the package (docs/performance.md,
// "Figures behind design choices").
// @ts-check
import { ExternalDataError } from '../generated/errors.mjs';
import { cacheMissingError } from './opfs-missing.mjs';

// (no value is one: external-data.mjs's `instanceof OpfsSource` is false)
export class OpfsSource {}

/** @returns {Promise<never>} */
async function noCache() {
  // (no origin private file system: js/'s error; one a script has given Node: this bundle's)
  throw (await cacheMissingError()) ?? new ExternalDataError("this bundle of onnx-wasm (Node's: dist/index.mjs, dist/index.cjs) has no OPFS cache; import onnx-wasm/web for it");
}

export const readCachedModel = noCache;
export const modelCache = { entries: noCache, delete: noCache, clear: noCache };
