// The OPFS cache's files (opfs-files.mjs) from wherever a session runs. In a dedicated worker the
// session calls them directly and reads rows straight into wasm memory through sync access
// handles. Elsewhere (a page's main thread) they run in one reader worker that the package starts
// for the page: each call is one message and one answer, and a run's rows come back in one
// transferred buffer. The worker is made from the functions' source text as a Blob URL, so that it
// works from js/ and from the one-file bundles alike, under a CSP that allows `worker-src blob:`
// (no eval, no new Function).
// Errors keep their kind ('missing', 'short', 'quota', 'busy', 'stopped', 'http') across the worker.
// @ts-check
import { fetchRange } from './fetch-range.mjs';
import { opfsFiles } from './opfs-files.mjs';
import { inDedicatedWorker } from './opfs-missing.mjs';

/** @typedef {ReturnType<typeof opfsFiles>} OpfsFiles */
// (a call by the method's name, its arguments as a message carries them)
/** @typedef {Record<string, (...args: any[]) => Promise<any>>} CallsByName */
// What opfsStore() gives, in a worker or not.
/**
 * @typedef {object} OpfsStore
 * @property {(op: string, args: unknown[], onBytes?: ((n: number) => void) | null) => Promise<any>} call
 * @property {(entry: string, name: string, runs: import('./sources.mjs').ReadRun[], end: number, heap: () => Uint8Array) => Promise<void>} readRuns
 * @property {(entry: string, name: string, length: number) => Promise<Uint8Array>} readBytes
 */

const PROGRESS_EVERY = 4 * 2 ** 20;   // bytes between progress messages of the reader worker

// The reader worker's script: the two functions' source text and a message loop.
/**
 * @param {typeof import('./fetch-range.mjs').fetchRange} fetchRange
 * @param {typeof import('./opfs-files.mjs').opfsFiles} opfsFiles
 * @param {number} every bytes between progress messages
 */
function workerMain(fetchRange, opfsFiles, every) {
  const files = opfsFiles(fetchRange);
  self.onmessage = async ({ data: { id, op, args } }) => {
    try {
      let result, transfer = /** @type {Transferable[]} */ ([]);
      if (op === 'read') {
        // runs [{ at, length }] into one buffer, run after run
        const [entry, name, runs, end] = args;
        let total = 0;
        const placed = runs.map((/** @type {{ at: number, length: number }} */ r) => ({ at: r.at, length: r.length, addr: (total += r.length) - r.length }));
        result = new Uint8Array(total);
        await files.read(entry, name, placed, end, result);
        transfer = [result.buffer];
      } else {
        let pending = 0;
        const onBytes = (/** @type {number} */ n) => { pending += n; if (pending >= every) { postMessage({ id, bytes: pending }); pending = 0; } };
        result = await (/** @type {CallsByName} */ (files))[op](...args, onBytes);
        if (pending) postMessage({ id, bytes: pending });
      }
      postMessage({ id, result }, transfer);
    } catch (e) {
      postMessage({ id, error: { name: e.name, message: e.message, kind: e.kind, size: e.size, got: e.got, length: e.length, stored: e.stored, kept: e.kept } });
    }
  };
}

// The page's reader worker: a call per message, answered in order of completion.
class ReaderWorker {
  #worker;
  /** @type {Map<number, { done: (result: any) => void, fail: (e: Error) => void, onBytes: ((n: number) => void) | null }>} */
  #calls = new Map();
  #next = 0;
  constructor() {
    const source = `(${workerMain})((${fetchRange}), (${opfsFiles}), ${PROGRESS_EVERY});`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.#worker = new Worker(url, { name: 'onnx-wasm OPFS reader' });
    URL.revokeObjectURL(url);
    this.#worker.onmessage = ({ data }) => {
      const call = this.#calls.get(data.id);
      if (!call) return;
      if ('bytes' in data) { call.onBytes?.(data.bytes); return; }
      this.#calls.delete(data.id);
      if (data.error) call.fail(Object.assign(new Error(data.error.message), data.error));
      else call.done(data.result);
    };
    this.#worker.onerror = (e) => {
      for (const call of this.#calls.values()) call.fail(new Error(`the OPFS reader worker failed: ${e.message}`));
      this.#calls.clear();
    };
  }
  /**
   * @param {string} op
   * @param {unknown[]} args
   * @param {((n: number) => void) | null} [onBytes]
   * @returns {Promise<any>} what the method resolved to
   */
  call(op, args, onBytes = null) {
    const id = this.#next++;
    return new Promise((done, fail) => {
      this.#calls.set(id, { done, fail, onBytes });
      this.#worker.postMessage({ id, op, args });
    });
  }
}

let files = /** @type {OpfsFiles | null} */ (null), worker = /** @type {ReaderWorker | null} */ (null);

// The cache's files as async calls: status, download, copy, readMeta, addFiles, list, remove,
// readRuns(entry, name, runs [{ at, length, addr }], end, heap) into wasm memory (heap(): the
// current HEAPU8) and readBytes(entry, name, length) into a new Uint8Array.
/** @returns {OpfsStore} */
export function opfsStore() {
  if (inDedicatedWorker()) {
    files ??= opfsFiles(fetchRange);
    // (the closures below read `files`, set above for good)
    return {
      call: (op, args, onBytes) => (/** @type {CallsByName} */ (files))[op](...args, onBytes),
      // (a ReadRun is what opfs-files.mjs reads, wasm memory its target)
      readRuns: (entry, name, runs, end, heap) => /** @type {OpfsFiles} */ (files).read(entry, name, runs, end, heap()),
      async readBytes(entry, name, length) {
        const bytes = new Uint8Array(length);
        await /** @type {OpfsFiles} */ (files).read(entry, name, [{ at: 0, length, addr: 0 }], length, bytes);
        return bytes;
      },
    };
  }
  worker ??= new ReaderWorker();
  // (the closures below read `worker`, set above for good)
  return {
    call: (op, args, onBytes) => /** @type {ReaderWorker} */ (worker).call(op, args, onBytes),
    readBytes: (entry, name, length) => /** @type {ReaderWorker} */ (worker).call('read', [entry, name, [{ at: 0, length }], length]),
    async readRuns(entry, name, runs, end, heap) {
      const bytes = await /** @type {ReaderWorker} */ (worker).call('read', [entry, name, runs.map((r) => ({ at: r.at, length: r.length })), end]);
      const h = heap();
      let from = 0;
      for (const r of runs) {
        for (const p of r.parts ?? [r]) {
          h.set(bytes.subarray(from, from + p.length), p.addr);
          from += p.length;
        }
      }
    },
  };
}
