// The files of the OPFS cache, where synchronous access handles exist (a dedicated worker): the
// session's own worker, or the one reader worker a page's sessions share (opfs-worker.mjs runs
// this function's source text there, so it refers to nothing outside itself but its argument,
// fetchRange, and the platform's globals).
// Layout: <OPFS root>/onnx-wasm-cache/<entry>/ holds entry.json ({ url, cacheKey, files }) and each
// file of the entry: the model ('model') and each external data file (its location, escaped).
// A file is written as '<name>.part' and renamed when complete: a complete name is never half
// written. Downloads and copies take a Web Lock per file, so that two pages never write one file:
// the second waits, then finds it complete.
// Errors carry a kind: 'missing' (not stored, or removed), 'short' { size }, 'quota', 'busy'
// (open for writing elsewhere), 'stopped' and 'http' (from fetchRange).
// @ts-check

// (Chromium's sync access handles take a mode, and have it: 'read-only' ones share a file.
// TypeScript's worker types know neither, nor FileSystemHandle.move.)
/** @typedef {FileSystemSyncAccessHandle & { mode?: string }} SyncHandle */
/** @typedef {FileSystemFileHandle & { createSyncAccessHandle(options?: { mode: 'read-only' | 'readwrite' }): Promise<SyncHandle>, move(name: string): Promise<void> }} FileHandle */
// A run of a file read into target[addr...], or with parts, its bytes part after part, each into
// target[part.addr...] (a ReadRun of sources.mjs, its addresses in wasm memory, where the target
// is wasm memory).
/** @typedef {{ at: number, length: number, addr: number, parts?: { length: number, addr: number }[] }} Placed */

/** @param {typeof import('./fetch-range.mjs').fetchRange} fetchRange */
export function opfsFiles(fetchRange) {
  const ROOT = 'onnx-wasm-cache';
  const FLUSH = 64 * 2 ** 20;   // bytes written between flushes of a download
  const SLICE = 16 * 2 ** 20;   // one Blob slice of a copy
  const SMALL_RUN = 16384;   // a read of at most this many bytes goes through a view kept for its length
  const ROWS_CHUNK = 8 * 2 ** 20;   // bytes of rows read and written at a time by interleave
  /**
   * @param {string} kind
   * @param {string} message
   * @param {object} [extra]
   */
  const fail = (kind, message, extra) => Object.assign(new Error(message), { kind, ...extra });
  /** @type {Map<string, SyncHandle>} */
  const open = new Map();   // 'entry/name' -> a read-only sync access handle kept open (Chromium)
  /** @type {FileSystemDirectoryHandle | null} */
  let root = null;

  const rootDir = async () => (root ??= await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true }));
  /**
   * @param {string} entry
   * @param {boolean} [create]
   * @returns {Promise<FileSystemDirectoryHandle | null>}
   */
  const entryDir = async (entry, create = false) => {
    try {
      return await (await rootDir()).getDirectoryHandle(entry, { create });
    } catch (e) {
      if (e.name === 'NotFoundError') return null;
      throw e;
    }
  };
  /**
   * @param {FileSystemDirectoryHandle} dir
   * @param {string} name
   * @returns {Promise<FileHandle | null>}
   */
  const fileIn = async (dir, name) => {
    try {
      return /** @type {FileHandle} */ (await dir.getFileHandle(name));
    } catch (e) {
      if (e.name === 'NotFoundError' || e.name === 'TypeMismatchError') return null;
      throw e;
    }
  };
  // (a file open for writing in another realm may refuse getFile(): its size is not known then)
  /** @param {FileHandle | null} file */
  const sizeOf = async (file) => {
    if (!file) return null;
    try {
      return (await file.getFile()).size;
    } catch (e) {
      if (e.name === 'NoModificationAllowedError') return null;
      throw e;
    }
  };
  // A small text file of an entry (a validator), or null.
  /**
   * @param {FileSystemDirectoryHandle} dir
   * @param {string} name
   */
  const readText = async (dir, name) => {
    const file = await fileIn(dir, name);
    return file ? (await file.getFile()).text() : null;
  };
  /**
   * @param {FileSystemDirectoryHandle} dir
   * @param {string} name
   * @param {string} text
   */
  const writeText = async (dir, name, text) => {
    const handle = await (await dir.getFileHandle(name, { create: true })).createSyncAccessHandle();
    try {
      const bytes = new TextEncoder().encode(text);
      handle.truncate(0);
      handle.write(bytes, { at: 0 });
      handle.flush();
    } finally {
      handle.close();
    }
  };
  /**
   * @param {string} name
   * @param {Error} e the QuotaExceededError
   * @param {number} stored
   * @param {boolean} kept
   */
  const quota = (name, e, stored, kept) => fail('quota', `storing '${name}' exceeded the storage quota after ${stored} bytes (${e.message})`, { stored, kept });

  // A read handle: kept open where the browser lets readers share a file ('read-only' mode,
  // Chromium), else opened for each read and closed after (Firefox ESR 153 locks the file for
  // one handle), waiting up to a second for another page's read to end.
  /**
   * @param {string} entry
   * @param {string} name
   * @returns {Promise<{ handle: SyncHandle, kept: boolean }>}
   */
  async function reader(entry, name) {
    const key = `${entry}/${name}`;
    const kept = open.get(key);
    if (kept) return { handle: kept, kept: true };
    const dir = await entryDir(entry);
    const file = dir && await fileIn(dir, name);
    if (!file) throw fail('missing', `'${name}' is no longer in the origin private file system (removed from the cache)`);
    for (let k = 0; ; ++k) {
      try {
        const handle = await file.createSyncAccessHandle({ mode: 'read-only' });
        if (handle.mode !== 'read-only') return { handle, kept: false };
        open.set(key, handle);
        return { handle, kept: true };
      } catch (e) {
        if (e.name === 'NotFoundError') throw fail('missing', `'${name}' is no longer in the origin private file system (removed from the cache)`);
        if (e.name !== 'NoModificationAllowedError' || k >= 50) throw e.name === 'NoModificationAllowedError' ? fail('busy', `'${name}' is open in another page`) : e;
        await new Promise((ok) => setTimeout(ok, 20));
      }
    }
  }
  /** @param {string} key */
  const forget = (key) => { const h = open.get(key); if (h) { open.delete(key); h.close(); } };
  /** @param {string | null} entry (null: every entry) */
  const closeUnder = (entry) => { for (const key of [...open.keys()]) if (entry === null || key.startsWith(`${entry}/`)) forget(key); };
  // Every realm (page, worker) closes the handles it keeps on an entry about to be removed.
  const channel = new BroadcastChannel(ROOT);
  channel.onmessage = ({ data }) => { if (data && 'close' in data) closeUnder(data.close); };
  // Removes a folder entry, after asking every realm to close its handles; retried for up to 2 s
  // while another realm's read still holds a file.
  /**
   * @param {FileSystemDirectoryHandle} dir
   * @param {string} name
   */
  async function removeAll(dir, name) {
    closeUnder(name);
    channel.postMessage({ close: name });
    for (let k = 0; ; ++k) {
      try {
        await dir.removeEntry(name, { recursive: true });
        return;
      } catch (e) {
        if (e.name === 'NotFoundError') return;
        if (e.name !== 'NoModificationAllowedError' || k >= 100) throw e.name === 'NoModificationAllowedError' ? fail('busy', `the cache entry is in use elsewhere (${e.message})`) : e;
        await new Promise((ok) => setTimeout(ok, 20));
      }
    }
  }

  // Writes '<name>.part' through write(handle, stored) -> bytes written, resuming from the bytes
  // it holds, then renames it. Nothing when the file is complete already. When the storage quota
  // runs out, the part is removed, or kept for resuming with `keep`.
  /**
   * @param {string} entry
   * @param {string} name
   * @param {(handle: SyncHandle, stored: number) => Promise<number>} write
   * @param {boolean} keep
   * @returns {Promise<number>}
   */
  async function store(entry, name, write, keep) {
    return navigator.locks.request(`${ROOT}/${entry}/${name}`, async () => {
      const dir = /** @type {FileSystemDirectoryHandle} */ (await entryDir(entry, true));   // (made if missing)
      if (await fileIn(dir, name)) return 0;
      const part = /** @type {FileHandle} */ (await dir.getFileHandle(`${name}.part`, { create: true }));
      /** @type {SyncHandle | null} */
      let handle;
      try {
        handle = await part.createSyncAccessHandle();
      } catch (e) {
        throw e.name === 'NoModificationAllowedError' ? fail('busy', `'${name}' is being written elsewhere`) : e;
      }
      const stored = handle.getSize();
      let written = 0;
      try {
        written = await write(handle, stored);
        handle.flush();
      } catch (e) {
        const kept = handle.getSize();
        handle.close();
        handle = null;
        if (e.name === 'QuotaExceededError') {
          if (!keep) await dir.removeEntry(`${name}.part`);   // nothing half-written is left
          throw quota(name, e, kept, keep);
        }
        throw e;
      } finally {
        handle?.close();
      }
      await part.move(name);
      return written;
    });
  }

  return {
    // { complete: bytes | null, part: bytes | null } of a file of an entry.
    /**
     * @param {string} entry
     * @param {string} name
     */
    async status(entry, name) {
      const dir = await entryDir(entry);
      if (!dir) return { complete: null, part: null };
      return { complete: await sizeOf(await fileIn(dir, name)), part: await sizeOf(await fileIn(dir, `${name}.part`)) };
    },
    // Downloads `url` into the entry's file `name` (resuming a partial one; `keep`: see store).
    // The server's validator of the file (fetchRange) is kept beside a part that stays
    // ('<name>.validator'), so that a later visit resumes only if the file is still the same; if
    // it changed, the bytes stored go and the download starts over. (It is written once the
    // download has stopped: in Chromium, a file opened for writing while the part is open takes
    // room from the quota that the part's writes then lack.)
    /**
     * @param {string} entry
     * @param {string} name
     * @param {string} url
     * @param {boolean} keep
     * @param {((n: number) => void) | null} [onBytes]
     */
    async download(entry, name, url, keep, onBytes) {
      return store(entry, name, async (handle, stored) => {
        const dir = /** @type {FileSystemDirectoryHandle} */ (await entryDir(entry, true));   // (made if missing)
        let base = stored, since = 0, learnt = /** @type {string | null} */ (null);
        let validator = stored > 0 ? await readText(dir, `${name}.validator`) : null;
        /**
         * @param {Uint8Array} chunk
         * @param {number} at
         */
        const put = (chunk, at) => {
          handle.write(chunk, { at: base + at });
          since += chunk.length;
          if (since >= FLUSH) { handle.flush(); since = 0; }
        };
        const remember = (/** @type {string} */ v) => { learnt = v; };
        const fetchFrom = () => fetchRange(url, base, null, put, onBytes, 5, validator, remember);
        try {
          let n;
          try {
            n = await fetchFrom();
          } catch (e) {
            if (e.kind !== 'changed') throw e;
            handle.truncate(0);
            base = 0;
            validator = null;
            n = await fetchFrom();
          }
          await dir.removeEntry(`${name}.validator`).catch(() => {});
          return n;
        } catch (e) {
          // (a validator that cannot be written, the quota full, only leaves the next resume unchecked)
          if (learnt) await writeText(dir, `${name}.validator`, learnt).catch(() => {});
          if (e.kind === 'stopped') { e.got += base; if (e.length !== null) e.length += base; }   // (counting the bytes stored before)
          throw e;
        }
      }, keep);
    },
    // Copies a Blob or File into the entry's file `name` (`keep`: see store).
    /**
     * @param {string} entry
     * @param {string} name
     * @param {Blob} blob
     * @param {boolean} keep
     * @param {((n: number) => void) | null} [onBytes]
     */
    async copy(entry, name, blob, keep, onBytes) {
      return store(entry, name, async (handle, stored) => {
        for (let at = stored; at < blob.size; at += SLICE) {
          const bytes = new Uint8Array(await blob.slice(at, Math.min(at + SLICE, blob.size)).arrayBuffer());
          handle.write(bytes, { at });
          onBytes?.(bytes.length);
        }
        return blob.size - stored;
      }, keep);
    },
    // Reads runs [{ at, length, addr }] of a complete file into target[addr...], after checking that
    // the file holds `end` bytes.
    /**
     * @param {string} entry
     * @param {string} name
     * @param {Placed[]} runs
     * @param {number} end
     * @param {Uint8Array} target
     */
    async read(entry, name, runs, end, target) {
      // (a read of no runs is made to open the handle that runs will keep using: where handles
      // have no mode, Firefox, each read opens its own, and there is nothing to open ahead)
      if (runs.length === 0 && !(typeof FileSystemSyncAccessHandle === 'function' && 'mode' in FileSystemSyncAccessHandle.prototype)) return;
      const { handle, kept } = await reader(entry, name);
      try {
        const size = handle.getSize();
        if (end > size) throw fail('short', `the file holds ${size} bytes`, { size });
        // (a run of at most SMALL_RUN bytes is read into a view made once per length, then copied:
        // a read costs about as much whatever its size, and making a new view of the target for
        // each of an embedding run's thousand reads was a part of that cost worth saving:
        // docs/notes/2026-11-27-opfs-reads.md)
        /** @type {Map<number, Uint8Array>} */
        const views = new Map();
        // (a run with parts: its view's parts, made once per view and kept while runs split alike)
        /** @type {Map<Uint8Array, { lengths: number[], views: Uint8Array[] }>} */
        const partViews = new Map();
        /**
         * @param {Uint8Array} view
         * @param {{ length: number, addr: number }[]} parts
         */
        const scatter = (view, parts) => {
          let kept = partViews.get(view);
          if (!kept || kept.lengths.length !== parts.length || parts.some((p, k) => p.length !== kept?.lengths[k])) {
            let from = 0;
            kept = { lengths: parts.map((p) => p.length), views: parts.map((p) => view.subarray(from, (from += p.length))) };
            partViews.set(view, kept);
          }
          for (let k = 0; k < parts.length; ++k) target.set(kept.views[k], parts[k].addr);
        };
        const options = { at: 0 };
        for (const r of runs) {
          if (r.length <= SMALL_RUN) {
            let view = views.get(r.length);
            if (!view) views.set(r.length, view = new Uint8Array(r.length));
            options.at = r.at;
            if (handle.read(view, options) === r.length) {
              if (r.parts) scatter(view, r.parts);
              else target.set(view, r.addr);
              continue;
            }
          }
          const into = r.parts ? new Uint8Array(r.length) : target.subarray(r.addr, r.addr + r.length);
          for (let n = 0; n < r.length;) {
            const got = handle.read(into.subarray(n), { at: r.at + n });
            if (got === 0) throw fail('short', `the file holds ${handle.getSize()} bytes`, { size: handle.getSize() });
            n += got;
          }
          if (r.parts) scatter(into, r.parts);
        }
      } catch (e) {
        if (kept) forget(`${entry}/${name}`);   // (opened again by the next read, or found missing)
        throw e;
      } finally {
        if (!kept) handle.close();
      }
    },
    // Writes the entry's file `rowsName`: rows 0 ... rows - 1 of the tables `parts` ([{ offset,
    // rowBytes }], stored in the complete file `name`) side by side, row by row (row r: part 0's
    // row r, then part 1's ...), so that a run reads a row of them all in one read (the option
    // cacheRowLayout). Read and written ROWS_CHUNK bytes of rows at a time; resumed from the whole
    // rows a part holds; a part is removed when the quota runs out (store).
    /**
     * @param {string} entry
     * @param {string} name
     * @param {string} rowsName
     * @param {{ offset: number, rowBytes: number }[]} parts
     * @param {number} rows
     * @param {((n: number) => void) | null} [onBytes]
     */
    async interleave(entry, name, rowsName, parts, rows, onBytes) {
      const width = parts.reduce((a, p) => a + p.rowBytes, 0);
      const end = Math.max(...parts.map((p) => p.offset + rows * p.rowBytes));
      return store(entry, rowsName, async (handle, stored) => {
        const step = Math.max(1, Math.floor(ROWS_CHUNK / width));
        const first = Math.floor(stored / width);
        handle.truncate(first * width);
        const out = new Uint8Array(step * width);
        const block = new Uint8Array(step * Math.max(...parts.map((p) => p.rowBytes)));
        for (let r = first; r < rows; r += step) {
          const n = Math.min(step, rows - r);
          let from = 0;
          for (const p of parts) {
            const piece = block.subarray(0, n * p.rowBytes);
            await this.read(entry, name, [{ at: p.offset + r * p.rowBytes, length: piece.length, addr: 0 }], end, piece);
            for (let k = 0; k < n; ++k) out.set(piece.subarray(k * p.rowBytes, (k + 1) * p.rowBytes), k * width + from);
            from += p.rowBytes;
          }
          handle.write(out.subarray(0, n * width), { at: r * width });
          onBytes?.(n * width);
        }
        return (rows - first) * width;
      }, false);
    },
    /** @param {string} entry */
    async readMeta(entry) {
      return navigator.locks.request(`${ROOT}/${entry}/entry.json`, async () => {
        const dir = await entryDir(entry);
        const file = dir && await fileIn(dir, 'entry.json');
        return file ? JSON.parse(await (await file.getFile()).text()) : null;
      });
    },
    // Makes the entry's entry.json { url, cacheKey, files } when missing, and adds `files` to its
    // list; resolves to the list.
    /**
     * @param {string} entry
     * @param {string} url
     * @param {string | null} cacheKey
     * @param {string[]} files
     * @returns {Promise<string[]>}
     */
    async addFiles(entry, url, cacheKey, files) {
      return navigator.locks.request(`${ROOT}/${entry}/entry.json`, async () => {
        const dir = /** @type {FileSystemDirectoryHandle} */ (await entryDir(entry, true));   // (made if missing)
        const file = await dir.getFileHandle('entry.json', { create: true });
        const text = await (await file.getFile()).text();
        const meta = text ? JSON.parse(text) : { url, cacheKey, files: [] };
        if (files.every((f) => meta.files.includes(f)) && text) return meta.files;
        for (const f of files) if (!meta.files.includes(f)) meta.files.push(f);
        const handle = await file.createSyncAccessHandle();
        try {
          const bytes = new TextEncoder().encode(JSON.stringify(meta));
          handle.truncate(0);
          handle.write(bytes, { at: 0 });
          handle.flush();
        } finally {
          handle.close();
        }
        return meta.files;
      });
    },
    // Every entry: [{ entry, meta, files: [{ name, bytes, complete }] }].
    /** @returns {Promise<{ entry: string, meta: { url: string, cacheKey: string | null, files: string[] } | null, files: { name: string, bytes: number, complete: boolean }[] }[]>} */
    async list() {
      const out = [];
      for await (const [entry, dir] of (await rootDir()).entries()) {
        if (dir.kind !== 'directory') continue;
        const files = [];
        let meta = null;
        // (an entry's folder holds files only)
        for await (const [name, file] of /** @type {FileSystemDirectoryHandle} */ (dir).entries()) {
          if (name === 'entry.json') { meta = JSON.parse(await (await /** @type {FileSystemFileHandle} */ (file).getFile()).text()); continue; }
          if (name.endsWith('.validator')) continue;
          files.push({ name: name.replace(/\.part$/, ''), bytes: (await /** @type {FileSystemFileHandle} */ (file).getFile()).size, complete: !name.endsWith('.part') });
        }
        out.push({ entry, meta, files });
      }
      return out;
    },
    // Removes an entry (null: every entry), every realm's handles on it closed first.
    /** @param {string | null} entry */
    async remove(entry) {
      const r = await rootDir();
      /** @type {string[]} */
      const names = [];
      if (entry !== null) names.push(entry);
      else for await (const name of r.keys()) names.push(name);
      for (const name of names) await navigator.locks.request(`${ROOT}/${name}/entry.json`, () => removeAll(r, name));
    },
  };
}
