// The OPFS tests' calls, the same in a page and in its module worker (worker.mjs): each returns
// what Node checks (plain data). opfs.test.mjs serves this folder with the package's js/ and dist/.
import { init, InferenceSession, Tensor, modelCache } from './js/index.mjs';

await init();
const sessions = new Map();
let next = 0;
const plain = (e) => ({ error: e.name, message: e.message, code: e.code });

/** @param {Uint8Array} bytes */
const toBase64 = (bytes) => {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
};

// One run of session `id` on int64 `indices` of `dims` (its one input), timed alone: { ms, ...take(out) },
// the output freed after `take`; or { error }.
async function timed(id, indices, dims, take) {
  const s = sessions.get(id);
  const feed = new Tensor('int64', indices.map(BigInt), dims);
  try {
    const t0 = performance.now();
    const { out } = await s.run({ [s.inputNames[0]]: feed });
    const ms = performance.now() - t0;
    try {
      return { ms, ...take(out) };
    } finally {
      out.dispose();
    }
  } catch (e) {
    return plain(e);
  } finally {
    feed.dispose();
  }
}

export const calls = {
  // Creates a session; returns { id, info (of the initializer `table`), events } or { error }.
  async create(source, options, table = 'table') {
    const events = [];
    try {
      const s = await InferenceSession.create(source, { ...options, onProgress: (e) => events.push(e) });
      sessions.set(++next, s);
      return { id: next, info: s.valueInfo(table), events };
    } catch (e) {
      return plain(e);
    }
  },
  // Runs the model (its one input: int64 `indices` of dims `dims`); returns { type, dims, bytes, ms }
  // or { error }. bytes: an array of numbers, or with `base64` a base64 string, for outputs of MBs:
  // an array of millions of numbers as the result of a WebDriver BiDi script.evaluate is an IPC
  // message too large for Firefox ESR 153, which crashes the page's process on purpose
  // (tests/browser/firefox-crash-repro/, docs/notes/2026-11-26-firefox-opfs-crash.md).
  async run(id, indices, dims = [indices.length], { base64 = false } = {}) {
    return timed(id, indices, dims, (out) => {
      const view = new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength);
      return { type: out.type, dims: out.dims, bytes: base64 ? toBase64(view) : Array.from(view) };
    });
  },
  // For the benchmark: create's time in ms, the session's id.
  async timedCreate(source, options, table = 'table') {
    const t0 = performance.now();
    const r = await calls.create(source, options, table);
    return { ...r, ms: performance.now() - t0 };
  },
  // For the benchmark: a float32 run's time, and columns 0 and cols - 1 of each row.
  async timedRun(id, indices, cols) {
    return timed(id, indices, [indices.length], (out) => ({ rows: indices.map((_, k) => [out.data[k * cols], out.data[k * cols + cols - 1]]) }));
  },
  // For the benchmark: a run's time (the run alone, in this context), its output's type and
  // dims, and the first 16 hex digits of the SHA-256 of its bytes (taken after the timing).
  async timedRunHash(id, indices, dims = [indices.length]) {
    const r = await timed(id, indices, dims, (out) => ({ type: out.type, dims: out.dims, bytes: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength).slice() }));
    if (r.error) return r;
    const { bytes, ...rest } = r;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return { ...rest, hash: Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('') };
  },
  async release(id) { await sessions.get(id).release(); sessions.delete(id); },
  async entries() { try { return await modelCache.entries(); } catch (e) { return plain(e); } },
  async delete(url, options) { try { return await modelCache.delete(url, options); } catch (e) { return plain(e); } },
  async clear() { try { await modelCache.clear(); return true; } catch (e) { return plain(e); } },
  // In the page: the model's bytes, and the picked File.
  async modelBytes(path) { return new Uint8Array(await (await fetch(path)).arrayBuffer()); },
};
