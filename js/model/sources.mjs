// Where the bytes of a model and of its external data come from. A model's own bytes are read
// whole into JS memory, where the decoder reads them (readModel). External data reaches wasm
// memory through a source: a file in Node (positioned fs.readSync straight into a view of wasm
// memory: no whole-file Buffer, no 2 GiB limit), a Blob or File (sliced and read in bounded
// chunks), a URL (fetched and streamed; a Range request when only part is needed; resumed when it
// stops early) or bytes already in JS memory; a copy in the OPFS cache is opfs-source.mjs's
// OpfsSource. Every source reads [offset, offset + length) into wasm memory at an address; all
// but a URL can also read scattered runs of rows, for tables kept outside wasm memory.
// Memory: nothing here allocates in wasm memory; callers own the addresses they pass.
// @ts-check
import { ModelError } from '../generated/errors.mjs';
import { getModule, isNode } from '../runtime.mjs';
import { fetchRange } from './fetch-range.mjs';
import { whyFetchFailed, whyReadFailed } from './fetch-failure.mjs';

/** @typedef {import('./progress.mjs').Progress} Progress */
// A run of bytes to read: [at, at + length) of the source into wasm memory at addr; or, with
// parts (OpfsSource's reads only: a row of a row layout, lazy-table.mjs), its bytes one part after
// another, each at its own addr.
/** @typedef {{ at: number, length: number, addr: number, parts?: { length: number, addr: number }[] }} ReadRun */
// What every source does (the classes below, and OpfsSource): its size when known before reading
// (null: not until fetched), and reads into wasm memory; readRuns where tables can be kept in it
// (canKeepTables). A source that fetches its bytes first (OpfsSource) has fetch and pendingBytes.
/**
 * @typedef {object} Source
 * @property {boolean} canKeepTables
 * @property {() => Promise<number | null>} size
 * @property {(offset: number, length: number, addr: number, progress?: Progress | null) => Promise<void>} readInto
 * @property {(runs: ReadRun[], end: number) => Promise<void>} [readRuns]
 * @property {(tables: import('./table-facts.mjs').TableFacts[]) => Promise<number>} [pendingBytes]
 * @property {(progress: Progress) => Promise<void>} [fetch]
 */
/** @typedef {{ fs: typeof import('node:fs'), path: typeof import('node:path') }} NodeModules */

const MiB = 1 << 20;
export const CHUNK = 64 * MiB;         // one read into wasm memory from a file (fs caps one read at 2 GiB)
const BLOB_CHUNK = 16 * MiB;           // one Blob slice held in JS memory
const BLOB_READS_IN_FLIGHT = 8;        // slices read at once for a table kept in a Blob


// Node's fs and path, or null outside Node (process.getBuiltinModule returns them at once, where
// import() builds an ES module wrapper first: docs/performance.md, "Figures behind design
// choices").
/** @returns {Promise<NodeModules | null>} */
export async function nodeModules() {
  // (the guard: js/runtime.mjs, isNode)
  if (globalThis.__ONNX_WASM_WEB_ENTRY__ || !isNode) return null;
  /**
   * @template {'node:fs' | 'node:path'} N
   * @param {N} name
   */
  const get = (name) => globalThis.process.getBuiltinModule?.(name) ?? import(name);
  return { fs: await get('node:fs'), path: await get('node:path') };
}

// A short read: the source holds fewer bytes than a read needs; `size`, the bytes it holds.
export class ShortRead extends Error {
  /** @param {number} size */
  constructor(size) {
    super(`the source holds ${size} bytes`);
    this.size = size;
  }
}

const heap = () => getModule().HEAPU8;   // read again after every await: memory may have grown

// Bytes already in JS memory (a Uint8Array or ArrayBuffer passed by the caller).
/** @implements {Source} */
export class BytesSource {
  /** @param {Uint8Array | ArrayBuffer} bytes */
  constructor(bytes) { this.bytes = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes; }
  get canKeepTables() { return true; }
  async size() { return this.bytes.length; }
  /**
   * @param {number} offset
   * @param {number} length
   * @param {number} addr
   * @param {Progress | null} [progress]
   */
  async readInto(offset, length, addr, progress) {
    if (offset + length > this.bytes.length) throw new ShortRead(this.bytes.length);
    for (let done = 0; done < length; done += CHUNK) {
      const n = Math.min(CHUNK, length - done);
      heap().set(this.bytes.subarray(offset + done, offset + done + n), addr + done);
      progress?.add(n);
    }
  }
  // runs: [{ at: source offset, length, addr }]
  /**
   * @param {ReadRun[]} runs
   * @param {number} end the bytes the source must hold
   */
  async readRuns(runs, end) {
    if (end > this.bytes.length) throw new ShortRead(this.bytes.length);
    const h = heap();
    for (const r of runs) h.set(this.bytes.subarray(r.at, r.at + r.length), r.addr);
  }
}

// A file in Node, opened for each load or run: a file that vanishes or shrinks under a table kept
// in it fails the run that reads it, rather than serving a deleted file's bytes.
/** @implements {Source} */
export class FileSource {
  /**
   * @param {typeof import('node:fs')} fs
   * @param {string} path
   */
  constructor(fs, path) { this.fs = fs; this.path = path; }
  get canKeepTables() { return true; }
  async size() { return this.fs.statSync(this.path).size; }
  /**
   * @template T
   * @param {number} end the bytes the file must hold
   * @param {(fd: number) => T} body
   * @returns {T}
   */
  #withFile(end, body) {
    const fs = this.fs;
    const fd = fs.openSync(this.path, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (end > size) throw new ShortRead(size);
      return body(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
  /**
   * @param {number} fd
   * @param {number} at
   * @param {number} length
   * @param {number} addr
   * @param {Progress | null | undefined} progress
   */
  #read(fd, at, length, addr, progress) {
    for (let done = 0; done < length;) {
      const got = this.fs.readSync(fd, heap(), addr + done, Math.min(CHUNK, length - done), at + done);
      if (got === 0) throw new ShortRead(this.fs.fstatSync(fd).size);
      done += got;
      progress?.add(got);
    }
  }
  /**
   * @param {number} offset
   * @param {number} length
   * @param {number} addr
   * @param {Progress | null} [progress]
   */
  async readInto(offset, length, addr, progress) {
    this.#withFile(offset + length, (fd) => this.#read(fd, offset, length, addr, progress));
  }
  /**
   * @param {ReadRun[]} runs
   * @param {number} end
   */
  async readRuns(runs, end) {
    this.#withFile(end, (fd) => { for (const r of runs) this.#read(fd, r.at, r.length, r.addr, null); });
  }
}

// A Blob or File: read in slices of at most 16 MiB (a File the user picked is read from disk).
/** @implements {Source} */
export class BlobSource {
  /** @param {Blob} blob */
  constructor(blob) { this.blob = blob; }
  get canKeepTables() { return true; }
  async size() { return this.blob.size; }
  /**
   * @param {number} at
   * @param {number} length
   * @param {number} addr
   */
  async #slice(at, length, addr) {
    const bytes = new Uint8Array(await this.blob.slice(at, at + length).arrayBuffer());
    if (bytes.length !== length) throw new ShortRead(this.blob.size);
    heap().set(bytes, addr);
  }
  /**
   * @param {number} offset
   * @param {number} length
   * @param {number} addr
   * @param {Progress | null} [progress]
   */
  async readInto(offset, length, addr, progress) {
    if (offset + length > this.blob.size) throw new ShortRead(this.blob.size);
    for (let done = 0; done < length; done += BLOB_CHUNK) {
      const n = Math.min(BLOB_CHUNK, length - done);
      await this.#slice(offset + done, n, addr + done);
      progress?.add(n);
    }
  }
  // Slices are read a few at a time, as each read of a File waits on the browser's file I/O: a few
  // in flight overlap those waits, and more in flight gained nothing, the browser's own cost per
  // read dominating (npm run bench:tables in Chromium; docs/performance.md, "Figures behind
  // design choices").
  /**
   * @param {ReadRun[]} runs
   * @param {number} end
   */
  async readRuns(runs, end) {
    if (end > this.blob.size) throw new ShortRead(this.blob.size);
    /** @type {[number, number, number][]} */
    const parts = [];
    for (const r of runs)
      for (let done = 0; done < r.length; done += BLOB_CHUNK) parts.push([r.at + done, Math.min(BLOB_CHUNK, r.length - done), r.addr + done]);
    // Every reader has stopped before this returns or throws: the caller frees the memory they write.
    let next = 0, failed = false;
    const reader = async () => {
      while (next < parts.length && !failed) {
        const [at, length, addr] = parts[next++];
        try { await this.#slice(at, length, addr); } catch (e) { failed = true; throw e; }
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: Math.min(BLOB_READS_IN_FLIGHT, parts.length) }, reader));
    const failure = settled.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
  }
}

// A download that stopped before its end (a network error, or a response that ended early, as a
// truncated entry of the browser's HTTP cache does) and could not be resumed: `got` of `length`
// bytes arrived.
export class DownloadStopped extends Error {
  /**
   * @param {string} url
   * @param {number} got
   * @param {number | null} length
   * @param {number} tries
   * @param {string} [cause] the last try's
   */
  constructor(url, got, length, tries, cause) {
    super(`the download of ${url} ended after ${got} of ${length} bytes (${tries} tries${cause ? `; the last: ${cause}` : ''})`);
    Object.assign(this, { got, length });
  }
}

export const URL_TRIES = 5;   // requests for one range: the first and up to 4 resumes

// A URL: fetched when read, asking for the range needed (a server that ignores Range sends the
// whole file: the bytes before the range are skipped as they stream by). A response that ends
// before the range's end is a download that stopped, not a short file: it resumes from the bytes
// received, URL_TRIES requests in all. Tables are not kept at a URL: they are loaded.
/** @implements {Source} */
export class UrlSource {
  /** @param {URL} url */
  constructor(url) { this.url = url; }
  get canKeepTables() { return false; }
  async size() { return null; }   // known once fetched
  /**
   * @param {number} offset
   * @param {number} length
   * @param {number} addr
   * @param {Progress | null} [progress]
   */
  async readInto(offset, length, addr, progress) {
    await fetchInto(this.url, offset, length, (chunk, at) => heap().set(chunk, addr + at), progress);
  }
}

// UrlSource's reads (fetchRange, self-contained: the OPFS reader worker runs the same function)
// fail with { kind: 'short', size } or { kind: 'stopped', got, length, tries }; as ShortRead and
// DownloadStopped here.
/**
 * @param {URL} url
 * @param {number} offset
 * @param {number} length
 * @param {(chunk: Uint8Array, at: number) => void} put
 * @param {Progress | null | undefined} progress
 */
async function fetchInto(url, offset, length, put, progress) {
  try {
    await fetchRange(url, offset, length, put, progress ? (n) => progress.add(n) : null, URL_TRIES);
  } catch (e) {
    if (e.kind === 'short') throw new ShortRead(e.size);
    if (e.kind === 'stopped') throw new DownloadStopped(url.href, e.got, e.length, e.tries, e.cause);
    if (e.kind === 'http') throw new Error(`cannot fetch ${url.href}: ${e.message}`, { cause: e });
    // (the first request's network error: fetch's bare TypeError)
    if (e.kind === undefined && e.name === 'TypeError') throw new Error(`cannot fetch ${url.href}: ${await whyFetchFailed(url, e)}`, { cause: e });
    throw e;
  }
}

// The bytes of a model given as a path or file: URL (Node), a URL (string or URL object), a Blob/File, a
// Uint8Array or an ArrayBuffer, and where its external data is looked for: { bytes, baseDir, baseUrl }.
/**
 * @param {unknown} source (the caller's: anything else gives null)
 * @param {string} what names the model in errors
 * @returns {Promise<{ bytes: Uint8Array, baseDir?: string, baseUrl?: URL } | null>}
 */
export async function readModel(source, what) {
  if (source instanceof Uint8Array) return { bytes: source };
  if (source instanceof ArrayBuffer) return { bytes: new Uint8Array(source) };
  if (typeof Blob === 'function' && source instanceof Blob) {
    try {
      return { bytes: new Uint8Array(await source.arrayBuffer()) };
    } catch (e) {
      // (a File the user picked that changed or vanished on disk since)
      const name = /** @type {Blob & { name?: string }} */ (source).name;
      throw new ModelError(`cannot read ${what}${name === undefined ? ' (a Blob)' : ` (File '${name}')`}: ${e.name}: ${e.message}`, { cause: e });
    }
  }
  const url = asUrl(source);
  if (url) {
    /** @type {Response} */
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw new ModelError(`cannot fetch ${what} at ${url.href}: ${await whyFetchFailed(url, e)}`, { cause: e });
    }
    if (!response.ok) {
      response.body?.cancel().catch(() => {});
      throw new ModelError(`cannot fetch ${what} at ${url.href}: ${httpStatus(response.status, response.statusText)}`);
    }
    try {
      return { bytes: new Uint8Array(await response.arrayBuffer()), baseUrl: url };
    } catch (e) {
      throw new ModelError(`cannot fetch ${what} at ${url.href}: the download stopped: ${await whyFetchFailed(url, e)}`, { cause: e });
    }
  }
  const file = asPath(source);
  if (file !== null) {
    const { fs, path } = /** @type {NodeModules} */ (await nodeModules());   // (in Node: asPath gave a path)
    const full = path.resolve(file);
    try {
      return { bytes: fs.readFileSync(full), baseDir: path.dirname(full) };
    } catch (e) {
      throw new ModelError(`cannot read ${what} '${full}': ${whyReadFailed(e)}`, { cause: e });
    }
  }
  return null;
}

// An HTTP error status as messages give it: 'HTTP 404 Not Found' ('HTTP 404' over HTTP/2, which
// has no status text). fetch-range.mjs writes the same (it refers to nothing outside itself).
/**
 * @param {number} status
 * @param {string} statusText
 */
export const httpStatus = (status, statusText) => `HTTP ${status} ${statusText}`.trim();

// A URL for a string or URL object: in browsers any string (relative to the page); in Node only
// http(s):, data: and blob: URLs (other strings are file paths, and file: URLs are made paths by
// asPath).
/**
 * @param {unknown} x
 * @returns {URL | null}
 */
export function asUrl(x) {
  if (isNode) {
    const href = x instanceof URL ? x.href : typeof x === 'string' ? x : '';
    return /^(https?|data|blob):/i.test(href) ? new URL(href) : null;
  }
  if (x instanceof URL) return x;
  if (typeof x !== 'string') return null;
  try { return new URL(x, globalThis.location?.href); } catch { return null; }
}

// In Node, the file path of a path string or a file: URL (string or URL object); else null.
/**
 * @param {unknown} x
 * @returns {string | null}
 */
export function asPath(x) {
  if (globalThis.__ONNX_WASM_WEB_ENTRY__ || !isNode) return null;
  const href = x instanceof URL ? x.href : typeof x === 'string' ? x : null;
  if (href === null) return null;
  if (!/^file:/i.test(href)) return asUrl(href) ? null : href;
  const url = globalThis.process.getBuiltinModule?.('node:url');
  return url ? url.fileURLToPath(href) : decodeURIComponent(new URL(href).pathname);
}
