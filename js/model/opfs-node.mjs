// What Node's bundles (dist/index.mjs and dist/index.cjs, scripts/build-node.mjs) take in place of
// opfs-source.mjs and opfs-store.mjs, the OPFS cache's code. Node, Deno and Bun have no origin
// private file system, so the cache never starts there: model-cache.mjs asks opfsMissing first
// (opfs-missing.mjs, in these bundles too) and fails with its answer, as js/ does. Left out, that
// code is not parsed at every import of the package (docs/performance.md, "Figures behind design
// choices").
// @ts-check
import { ExternalDataError } from '../generated/errors.mjs';

// (no value is one: external-data.mjs's `instanceof OpfsSource` is false)
export class OpfsSource {}

// Reached only where a script has given Node an origin private file system of its own.
/** @returns {never} */
export function opfsStore() {
  throw new ExternalDataError("this bundle of onnx-wasm (Node's: dist/index.mjs, dist/index.cjs) has no OPFS cache; import onnx-wasm/web for it");
}
