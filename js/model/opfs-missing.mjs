// Whether this context can keep the OPFS cache, and the error the cache fails with where it cannot:
// apart from the cache's code (model-cache.mjs, opfs-store.mjs, opfs-source.mjs), which Node's
// bundles leave out (opfs-node.mjs), so that both fail alike.
// @ts-check
import { ExternalDataError } from '../generated/errors.mjs';

export const inDedicatedWorker = () => typeof DedicatedWorkerGlobalScope === 'function' && globalThis instanceof DedicatedWorkerGlobalScope;

// Whether this context has the origin private file system: null, or why not.
export async function opfsMissing() {
  if (typeof navigator !== 'object' || typeof navigator.storage?.getDirectory !== 'function') return 'this context has no origin private file system (navigator.storage.getDirectory)';
  if (typeof navigator.locks?.request !== 'function') return 'this context has no Web Locks (navigator.locks)';
  if (!inDedicatedWorker() && typeof Worker !== 'function') return 'this context cannot start a worker for sync access handles';
  try {
    await navigator.storage.getDirectory();
  } catch (e) {
    return `the browser refuses it here (${e.name}: ${e.message}; private browsing?)`;
  }
  return null;
}

// The cache's error where this context has no origin private file system, or null.
export async function cacheMissingError() {
  const missing = await opfsMissing();
  return missing ? new ExternalDataError(`the model cache (options.cache 'opfs') needs the origin private file system: ${missing}`) : null;
}
