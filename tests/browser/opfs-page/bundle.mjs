// The one-file bundle (dist/onnx-wasm.web.mjs), served under a strict CSP: its reader worker
// (a Blob URL) reads a table kept in OPFS for this main-thread session.
import { InferenceSession, Tensor, modelCache } from './dist/onnx-wasm.web.mjs';
window.lookup = async (url, indices) => {
  try {
    const s = await InferenceSession.create(url, { cache: 'opfs', externalDataMode: 'lazy' });
    const feed = new Tensor('int64', indices.map(BigInt), [indices.length]);
    const { out } = await s.run({ indices: feed });
    const r = { storage: s.valueInfo('table').storage, bytes: Array.from(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength)) };
    out.dispose(); feed.dispose(); await s.release();
    await modelCache.delete(url);
    return r;
  } catch (e) {
    return { error: e.name, message: e.message };
  }
};
document.body.dataset.ready = '1';
