// The in-page half of `npm run bench -- --browser` (bench/browser.mjs serves it): onnx-wasm's
// one-file entry and onnxruntime-web (wasm, 1 thread) side by side in one Chromium page, on the
// models and feeds bench/browser.mjs wrote from bench/models.mjs. Browsers coarsen
// performance.now() (to 100 µs without cross-origin isolation), so runs are timed in batches.
import * as ow from '../dist/onnx-wasm.web.mjs';
import * as ort from '../ort/ort.wasm.min.mjs';
import { load, perRun } from './browser-cases.mjs';

ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = new URL('../ort/', import.meta.url).href;
ort.env.logLevel = 'error';
const ready = ow.init();

const bytesOf = (d) => new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
function sameBytes(a, b) {
  const x = bytesOf(a), y = bytesOf(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; ++i) if (x[i] !== y[i]) return false;
  return true;
}

// One case: both sessions, outputs compared byte for byte, then per-run µs of each.
window.benchCase = async (id) => {
  await ready;
  const c = await load(id);
  const ours = await ow.InferenceSession.create(c.bytes);
  const theirs = await ort.InferenceSession.create(c.bytes, { executionProviders: ['wasm'] });
  const feedsOurs = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ow.Tensor(f.type, f.data, f.dims)]));
  const feedsOrt = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)]));
  const a = (await ours.run(feedsOurs)).out, b = (await theirs.run(feedsOrt)).out;
  const identical = sameBytes(a.data, b.data) && JSON.stringify(Array.from(a.dims)) === JSON.stringify(Array.from(b.dims));
  a.dispose(); b.dispose?.();
  const usOurs = await perRun(() => ours.run(feedsOurs), (r) => r.out.dispose());
  const usOrt = await perRun(() => theirs.run(feedsOrt), (r) => r.out.dispose?.());
  for (const t of Object.values(feedsOurs)) t.dispose();
  await ours.release(); await theirs.release();
  return { id, usOurs, usOrt, identical };
};

document.body.dataset.ready = '1';
