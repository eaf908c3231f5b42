// An external data file kept in the OPFS cache: fetched into it first (downloaded from its URL,
// or copied from a Blob or File the user picked; resumed from the bytes stored), then read from
// it: whole tables into wasm memory, or the rows a run needs (canKeepTables), through sync access
// handles (opfs-store.mjs).
// @ts-check
import { ExternalDataError, ModelError } from '../generated/errors.mjs';
import { whyFetchFailed } from './fetch-failure.mjs';
import { getModule } from '../runtime.mjs';
import { CHUNK, DownloadStopped, ShortRead } from './sources.mjs';
import { sizeText, tableBytes } from './table-facts.mjs';

/** @typedef {import('./progress.mjs').Progress} Progress */
/** @typedef {import('./sources.mjs').Source} Source */

const heap = () => getModule().HEAPU8;

// A reader's error as sources give it: ShortRead for a short file, else the error itself.
/** @param {any} e (what the store threw: an Error with a kind, or any other) */
function readError(e) {
  if (e.kind === 'short') return new ShortRead(e.size);
  return e;
}

// The room the storage quota leaves, when it is less than `need` bytes; null when there is enough
// or the browser does not say.
/** @param {number} need */
async function roomShort(need) {
  // (quota and usage come together: quota is checked finite)
  const estimate = /** @type {{ quota: number, usage: number } | undefined} */ (await navigator.storage.estimate?.());
  if (!estimate || !Number.isFinite(estimate.quota) || estimate.quota - estimate.usage >= need) return null;
  return Math.max(0, estimate.quota - estimate.usage);
}

/** @implements {Source} */
export class OpfsSource {
  // store: opfsStore(); entry, name: the file in the cache; location: as the model names it;
  // origin: { url } or { blob }; addFile(name): records the file in the entry's list;
  // keepPartial: a download that runs out of quota keeps its bytes for the next create().
  /**
   * @param {import('./opfs-store.mjs').OpfsStore} store
   * @param {string} entry
   * @param {string} name
   * @param {string} location
   * @param {{ url?: URL, blob?: Blob }} origin one of the two
   * @param {(name: string) => Promise<unknown>} addFile
   * @param {boolean} [keepPartial]
   */
  constructor(store, entry, name, location, origin, addFile, keepPartial = false) {
    // (one by one, not Object.assign(this, { ... }), so that the type check knows the fields)
    this.store = store;
    this.entry = entry;
    this.name = name;
    this.location = location;
    this.origin = origin;
    this.addFile = addFile;
    this.keepPartial = keepPartial;
    /** @type {string[]} */
    this.tables = [];
  }
  get canKeepTables() { return true; }
  /** @returns {Promise<{ complete: number | null, part: number | null }>} */
  #status() { return this.store.call('status', [this.entry, this.name]); }

  // The bytes still to fetch for the tables `tables` (facts) stored in this file.
  /** @param {import('./table-facts.mjs').TableFacts[]} tables */
  async pendingBytes(tables) {
    this.tables = tables.map((x) => x.name);
    const { complete, part } = await this.#status();
    if (complete !== null) return 0;
    this.needed = this.origin.blob ? this.origin.blob.size : Math.max(0, ...tables.map((x) => x.offset + x.bytes));
    return Math.max(0, this.needed - (part ?? 0));
  }

  #what() { return `${this.tables.length === 1 ? 'table' : 'tables'} ${this.tables.map((t) => `'${t}'`).join(', ')} ('${this.location}')`; }

  // Downloads or copies the file into the cache, unless it is there complete.
  /** @param {Progress} progress */
  async fetch(progress) {
    const { complete, part } = await this.#status();
    if (complete !== null) return;
    const stored = part ?? 0;
    const need = Math.max(0, (this.needed ?? 0) - stored);
    // (with keepPartial the download goes ahead: what fits is kept, and resumed once there is room)
    const room = this.keepPartial ? null : await roomShort(need);
    if (room !== null)
      throw new ExternalDataError(`${this.#what()}: keeping it in the origin private file system needs ${need} more bytes (${sizeText(/** @type {number} */ (this.needed))} in all, ${stored} stored), and the storage quota leaves ${room}; nothing was written`);
    try {
      await this.addFile(this.name);
      if (this.origin.url) await this.store.call('download', [this.entry, this.name, this.origin.url.href, this.keepPartial], (n) => progress.add(n));
      else await this.store.call('copy', [this.entry, this.name, this.origin.blob, this.keepPartial], (n) => progress.add(n));
    } catch (e) {
      if (e.name === 'QuotaExceededError') throw new ExternalDataError(`${this.#what()}: the storage quota ran out before the download began (${e.message})`);
      if (e.kind === 'quota') {
        throw new ExternalDataError(`${this.#what()}: the storage quota ran out after ${e.stored} of ${this.needed} bytes; ${e.kept
          ? 'the bytes stored are kept (keepPartial), and the next create() resumes from them once there is room'
          : 'the partial file was removed (keepPartial keeps it for resuming)'} (${e.message})`);
      }
      // ('stopped' and 'http' come from a download: origin.url is set)
      if (e.kind === 'stopped') throw new ExternalDataError(`${this.#what()}: ${new DownloadStopped(/** @type {URL} */ (this.origin.url).href, e.got, e.length, 5, e.message).message}; the bytes received are kept, and the next create() resumes from them`);
      // (a file that cannot be fetched: a ModelError, as without the cache: load-tensor.mjs)
      if (e.kind === 'http') throw new ModelError(`${this.#what()}: cannot read external data '${this.location}': cannot fetch ${/** @type {URL} */ (this.origin.url).href}: ${e.message}`);
      if (e.kind === undefined && e.name === 'TypeError' && this.origin.url)
        throw new ModelError(`${this.#what()}: cannot read external data '${this.location}': cannot fetch ${this.origin.url.href}: ${await whyFetchFailed(this.origin.url, e)}`);
      throw new ExternalDataError(`${this.#what()}: cannot keep it in the origin private file system: ${e.name}: ${e.message}`);
    }
  }

  // The cacheRowLayout file of tables `tables` (facts, stored in this file, with as many rows):
  // their rows side by side, row by row, in a file of the same entry, named by this file and the
  // tables' ranges. Its name, parts ([{ offset, rowBytes }]), rows and bytes.
  /** @param {import('./table-facts.mjs').TableFacts[]} tables */
  rowLayoutOf(tables) {
    const rows = tables[0].dims[0];
    // (a row's bytes as LazyTable counts them, whose sum is the layout's width when it is read)
    const parts = tables.map((x) => ({ offset: x.offset, rowBytes: tableBytes(x.t, [1, ...x.dims.slice(1)]) }));
    const name = `${this.name}.rows-${parts.map((p) => `${p.offset}x${p.rowBytes}`).join('-')}`;
    return { name, parts, rows, bytes: tables.reduce((a, x) => a + x.bytes, 0) };
  }

  // The bytes still to write for that file (0 when it is complete).
  /** @param {import('./table-facts.mjs').TableFacts[]} tables */
  async rowLayoutPending(tables) {
    const { name, bytes } = this.rowLayoutOf(tables);
    const { complete, part } = await this.store.call('status', [this.entry, name]);
    return complete !== null ? 0 : bytes - (part ?? 0);
  }

  // Writes that file unless it is complete (after this file is fetched; progress counts its
  // bytes), and returns an OpfsSource that reads it.
  /**
   * @param {import('./table-facts.mjs').TableFacts[]} tables
   * @param {Progress} progress
   */
  async rowLayout(tables, progress) {
    const { name, parts, rows, bytes } = this.rowLayoutOf(tables);
    const what = `the row layout of tables ${tables.map((x) => `'${x.name}'`).join(', ')} (options.cacheRowLayout)`;
    try {
      const { complete, part } = await this.store.call('status', [this.entry, name]);
      if (complete === null) {
        const need = bytes - (part ?? 0);
        const room = await roomShort(need);
        if (room !== null)
          throw new ExternalDataError(`${what}: keeping it in the origin private file system needs ${need} more bytes (${sizeText(bytes)} in all), and the storage quota leaves ${room}; nothing was written`);
        await this.addFile(name);
        await this.store.call('interleave', [this.entry, this.name, name, parts, rows], (n) => progress.add(n));
      }
    } catch (e) {
      if (e instanceof ExternalDataError) throw e;
      if (e.kind === 'quota') throw new ExternalDataError(`${what}: the storage quota ran out after ${e.stored} of ${bytes} bytes; the partial file was removed (${e.message})`);
      if (e.kind === 'short' || e.kind === 'missing') throw new ExternalDataError(`${what}: cannot read '${this.location}' from the origin private file system: ${e.message}`);
      throw new ExternalDataError(`${what}: cannot write it in the origin private file system: ${e.name}: ${e.message}`);
    }
    return new OpfsSource(this.store, this.entry, name, `${this.location} (rows side by side, in the cache)`, this.origin, this.addFile);
  }

  async size() {
    const { complete } = await this.#status();
    if (complete === null) throw new ExternalDataError(`'${this.location}' is not in the origin private file system (removed from the cache)`);
    return complete;
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {number} addr
   * @param {Progress | null} [progress]
   */
  async readInto(offset, length, addr, progress) {
    try {
      for (let done = 0; done < length; done += CHUNK) {
        const n = Math.min(CHUNK, length - done);
        await this.store.readRuns(this.entry, this.name, [{ at: offset + done, length: n, addr: addr + done }], offset + length, heap);
        progress?.add(n);
      }
    } catch (e) {
      throw readError(e);
    }
  }

  /**
   * @param {import('./sources.mjs').ReadRun[]} runs
   * @param {number} end
   */
  async readRuns(runs, end) {
    try {
      await this.store.readRuns(this.entry, this.name, runs, end, heap);
    } catch (e) {
      throw readError(e);
    }
  }
}
