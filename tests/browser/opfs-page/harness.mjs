// The OPFS tests' calls, the same in a page and in its module worker (worker.mjs): each returns
// what Node checks (plain data). opfs.test.mjs serves this folder with the package's js/ and dist/.
import { init, InferenceSession, Tensor, modelCache } from './js/index.mjs';

await init();
const sessions = new Map();
let next = 0;
const plain = (e) => ({ error: e.name, message: e.message, code: e.code });

export const calls = {
  // Creates a session; returns { id, info, events } or { error }.
  async create(source, options) {
    const events = [];
    try {
      const s = await InferenceSession.create(source, { ...options, onProgress: (e) => events.push(e) });
      sessions.set(++next, s);
      return { id: next, info: s.valueInfo('table'), events };
    } catch (e) {
      return plain(e);
    }
  },
  // Runs the Gather; returns { type, dims, bytes } or { error }.
  async run(id, indices) {
    const feed = new Tensor('int64', indices.map(BigInt), [indices.length]);
    try {
      const t0 = performance.now();
      const { out } = await sessions.get(id).run({ indices: feed });
      const ms = performance.now() - t0;
      const bytes = Array.from(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength));
      const r = { type: out.type, dims: out.dims, bytes, ms };
      out.dispose();
      return r;
    } catch (e) {
      return plain(e);
    } finally {
      feed.dispose();
    }
  },
  // For the benchmark: create's time in ms, the session's id.
  async timedCreate(source, options) {
    const t0 = performance.now();
    const r = await calls.create(source, options);
    return { ...r, ms: performance.now() - t0 };
  },
  // For the benchmark: a float32 run's time, and columns 0 and cols - 1 of each row.
  async timedRun(id, indices, cols) {
    const feed = new Tensor('int64', indices.map(BigInt), [indices.length]);
    try {
      const t0 = performance.now();
      const { out } = await sessions.get(id).run({ indices: feed });
      const ms = performance.now() - t0;
      const rows = indices.map((_, k) => [out.data[k * cols], out.data[k * cols + cols - 1]]);
      out.dispose();
      return { ms, rows };
    } catch (e) {
      return plain(e);
    } finally {
      feed.dispose();
    }
  },
  async release(id) { await sessions.get(id).release(); sessions.delete(id); },
  async entries() { try { return await modelCache.entries(); } catch (e) { return plain(e); } },
  async delete(url, options) { try { return await modelCache.delete(url, options); } catch (e) { return plain(e); } },
  async clear() { try { await modelCache.clear(); return true; } catch (e) { return plain(e); } },
  // In the page: the model's bytes, and the picked File.
  async modelBytes(path) { return new Uint8Array(await (await fetch(path)).arrayBuffer()); },
};
