// The OPFS cache of models and their external data (create(source, { cache: 'opfs' })), and
// modelCache, which lists and removes what it holds. An entry is one model URL and cacheKey (or
// one File or Blob given as external data, keyed by its name, size and date): its model and its
// external data files, each fetched once, then read from the origin private file system on every
// later create(), with no request (offline too).
// @ts-check
import { ExternalDataError, ModelError } from '../generated/errors.mjs';
import { whyFetchFailed } from './fetch-failure.mjs';
import { OpfsSource } from './opfs-source.mjs';
import { cacheMissingError } from './opfs-missing.mjs';
import { opfsStore } from './opfs-store.mjs';
import { BlobSource, UrlSource, asUrl, readModel } from './sources.mjs';

/** @typedef {import('./sources.mjs').Source} Source */
/** @typedef {import('./opfs-store.mjs').OpfsStore} OpfsStore */
// An entry as the store's list gives it (opfs-files.mjs), of those with their entry.json.
/** @typedef {{ entry: string, meta: { url: string, cacheKey: string | null, files: string[] }, files: { name: string, bytes: number, complete: boolean }[] }} Listed */

// The entry's folder name: 16 hex digits of two FNV-1a hashes of url and cacheKey.
/**
 * @param {string} url
 * @param {string | null | undefined} cacheKey
 */
function entryName(url, cacheKey) {
  const text = `${url}\n${cacheKey ?? ''}`;
  let a = 0x811c9dc5, b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}
// A file name in an entry for a location ('model' is the model).
/** @param {string} location */
const fileName = (location) => `data-${encodeURIComponent(location)}`;
// A Blob's key: what identifies a file the user picked.
/** @param {Blob & { name?: string, lastModified?: number }} blob a File or a Blob */
const blobKey = (blob) => ({ url: `file:${blob.name ?? 'blob'}`, cacheKey: `${blob.size} bytes, modified ${blob.lastModified ?? '-'}` });

/** @returns {Promise<OpfsStore>} */
async function store() {
  const missing = await cacheMissingError();
  if (missing) throw missing;
  return opfsStore();
}

// addFile(name) of the entry `entry` of `url`: adds a file to its list (made when absent).
/**
 * @param {OpfsStore} s
 * @param {string} entry
 * @param {string} url
 * @param {string | null | undefined} cacheKey
 * @returns {(name: string) => Promise<unknown>}
 */
const entryFiles = (s, entry, url, cacheKey) => (name) => s.call('addFiles', [entry, url, cacheKey ?? null, [name]]);

// Fetches an error-mapped file into the cache (used for the model itself).
/**
 * @param {OpfsStore} s
 * @param {string} entry
 * @param {string} name
 * @param {string} url
 * @param {boolean} keepPartial
 * @returns {Promise<number | null>} the file's size once complete
 */
async function fetchFile(s, entry, name, url, keepPartial) {
  try {
    await s.call('download', [entry, name, url, keepPartial]);
  } catch (e) {
    // A model that cannot be fetched is a ModelError, with the message readModel gives without
    // the cache (as in Node); what only the cache does (keep a partial download, a quota) is an
    // ExternalDataError.
    if (e.kind === 'http') throw new ModelError(`cannot fetch the ONNX model at ${url}: ${e.message}`);
    if (e.kind === undefined && e.name === 'TypeError') throw new ModelError(`cannot fetch the ONNX model at ${url}: ${await whyFetchFailed(new URL(url), e)}`);
    if (e.kind === 'stopped') throw new ExternalDataError(`the model ${url}: the download ended after ${e.got} of ${e.length} bytes (${e.message}); the bytes received are kept`);
    if (e.kind === 'quota') throw new ExternalDataError(`the model ${url}: the storage quota ran out (${e.message})`);
    throw new ExternalDataError(`the model ${url}: cannot keep it in the origin private file system: ${e.message}`);
  }
  const { complete } = await s.call('status', [entry, name]);
  return complete;
}

// What create() reads with options.cache 'opfs': { bytes, baseUrl, wrap }, wrap(source,
// location) replacing a URL's or a Blob's source by its copy in the cache.
/**
 * @param {unknown} source InferenceSession.create()'s model
 * @param {{ cacheKey?: string, keepPartial: boolean }} options
 * @param {string} what names the model in errors
 * @returns {Promise<{ bytes: Uint8Array, baseDir?: string, baseUrl?: URL, wrap: (src: Source, location: string) => Source } | null>}
 */
export async function readCachedModel(source, { cacheKey, keepPartial }, what) {
  const s = await store();
  /** @param {((src: Source, location: string) => Source) | null} wrapUrl */
  const blobs = (wrapUrl) => (/** @type {Source} */ src, /** @type {string} */ location) => {
    if (src instanceof BlobSource) {
      const key = blobKey(src.blob);
      const entry = entryName(key.url, cacheKey ?? key.cacheKey);
      return new OpfsSource(s, entry, fileName(location), location, { blob: src.blob }, entryFiles(s, entry, key.url, cacheKey ?? key.cacheKey), keepPartial);
    }
    return wrapUrl ? wrapUrl(src, location) : src;
  };
  const url = typeof Blob === 'function' && source instanceof Blob ? null : asUrl(source);
  if (!url) {
    const read = await readModel(source, what);
    return read && { ...read, wrap: blobs(null) };
  }
  const entry = entryName(url.href, cacheKey);
  const addFile = entryFiles(s, entry, url.href, cacheKey);
  try {
    await addFile('model');
  } catch (e) {
    if (e.name === 'QuotaExceededError') throw new ExternalDataError(`the model ${url.href}: the storage quota ran out (${e.message})`);
    throw e;
  }
  const size = await fetchFile(s, entry, 'model', url.href, keepPartial);
  const bytes = await s.readBytes(entry, 'model', /** @type {number} */ (size));   // (complete: fetchFile has stored it)
  /**
   * @param {Source} src
   * @param {string} location
   */
  const wrapUrl = (src, location) => (src instanceof UrlSource ? new OpfsSource(s, entry, fileName(location), location, { url: src.url }, addFile, keepPartial) : src);
  return { bytes, baseUrl: url, wrap: blobs(wrapUrl) };
}

// What the OPFS cache holds, and removing it. Each method fails with ExternalDataError where the
// origin private file system is missing.
export const modelCache = {
  // [{ url, cacheKey, bytes, complete, files: [{ name, bytes, complete }] }]: url is the model's URL,
  // or 'file:<name>' for a File copied in; complete: every file it lists is stored whole.
  /** @returns {Promise<import('../index.js').ModelCacheEntry[]>} */
  async entries() {
    const s = await store();
    return (await s.call('list', [])).filter((/** @type {Listed} */ e) => e.meta).map((/** @type {Listed} */ { meta, files }) => ({
      url: meta.url, cacheKey: meta.cacheKey, bytes: files.reduce((a, f) => a + f.bytes, 0),
      complete: meta.files.every((name) => files.some((f) => f.name === name && f.complete)),
      files: files.map((f) => ({ name: f.name === 'model' ? 'model' : decodeURIComponent(f.name.replace(/^data-/, '')), bytes: f.bytes, complete: f.complete })),
    }));
  },
  // Removes the entry of a model URL (with the cacheKey it was stored with), of a File or Blob,
  // or an entry as entries() lists it ({ url, cacheKey }, 'file:<name>' urls included); resolves
  // to whether there was one.
  /**
   * @param {any} source the caller's (js/index.d.ts types it), told apart here: anything else is an error
   * @param {{ cacheKey?: string }} [options]
   * @returns {Promise<boolean>}
   */
  async delete(source, { cacheKey } = {}) {
    const s = await store();
    /** @type {string[]} */
    const keys = [];
    if (typeof Blob === 'function' && source instanceof Blob) {
      const k = blobKey(source);
      keys.push(entryName(k.url, cacheKey ?? k.cacheKey));
    } else {
      const listed = source !== null && typeof source === 'object' && !(source instanceof URL) && typeof source.url === 'string';
      const url = listed ? source.url : source;
      const key = listed ? source.cacheKey ?? undefined : cacheKey;
      // The url as entries() gives it (a File's is 'file:<name>', not a URL), then as a URL.
      if (typeof url === 'string') keys.push(entryName(url, key));
      const href = asUrl(url)?.href;
      if (href !== undefined) keys.push(entryName(href, key));
      if (!keys.length) throw new ExternalDataError(`modelCache.delete takes a model's URL, a File or an entry of entries(), got ${typeof source}`);
    }
    for (const key of keys) {
      if ((await s.call('readMeta', [key])) === null) continue;
      await s.call('remove', [key]);
      return true;
    }
    return false;
  },
  async clear() {
    const s = await store();
    await s.call('remove', [null]);
  },
};
