// The in-page half of `npm run bench -- --browser` (bench/browser.mjs serves it): onnx-wasm's
// one-file entry and onnxruntime-web (wasm, 1 thread) side by side in one Chromium page, on the
// models and feeds bench/browser.mjs wrote from bench/models.mjs. Browsers coarsen
// performance.now() (to 100 µs without cross-origin isolation), so runs are timed in batches.
import * as ow from '../dist/onnx-wasm.web.mjs';
import * as ort from '../ort/ort.wasm.min.mjs';

ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = new URL('../ort/', import.meta.url).href;
ort.env.logLevel = 'error';
const ready = ow.init();

// { bytes, feeds: { name: { type, data, dims } } } of a case written by bench/browser.mjs.
async function load(id) {
  const get = async (f) => new Uint8Array(await (await fetch(`cases/${id}/${f}`)).arrayBuffer());
  const meta = JSON.parse(new TextDecoder().decode(await get('meta.json')));
  const ARRAYS = { float32: Float32Array, uint8: Uint8Array, int64: BigInt64Array };
  const feeds = {};
  for (const f of meta.feeds) {
    const b = await get(`${f.name}.bin`);
    feeds[f.name] = { type: f.type, dims: f.dims, data: new ARRAYS[f.type](b.buffer, b.byteOffset, b.byteLength / ARRAYS[f.type].BYTES_PER_ELEMENT) };
  }
  return { bytes: await get('model.onnx'), feeds };
}

// Per-run µs: batches of n runs, n doubled until a batch takes 100 ms (or n = 2^14), then the
// median of 5 batches. A slow engine gets one batch of at least 3 runs.
async function perRun(run) {
  let n = 1, ms = 0;
  for (;;) {
    const t0 = performance.now();
    for (let k = 0; k < n; ++k) await run();
    ms = performance.now() - t0;
    if (ms >= 100 || n >= 16384) break;
    n *= 2;
  }
  if (ms > 1500) return (ms / n) * 1000;
  const batches = [];
  for (let b = 0; b < 5; ++b) {
    const t0 = performance.now();
    for (let k = 0; k < n; ++k) await run();
    batches.push(((performance.now() - t0) / n) * 1000);
  }
  return batches.sort((a, b) => a - b)[2];
}

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
  const usOurs = await perRun(async () => (await ours.run(feedsOurs)).out.dispose());
  const usOrt = await perRun(async () => { (await theirs.run(feedsOrt)).out.dispose?.(); });
  for (const t of Object.values(feedsOurs)) t.dispose();
  await ours.release(); await theirs.release();
  return { id, usOurs, usOrt, identical };
};

// A fresh page's first 50 runs of the tiny case: run 1, then runs 2 to 50 each timed alone (their
// median, at the timer's resolution: 5 µs in a cross-origin isolated page, where bench/browser.mjs
// opens this) and as one batch (their mean), and the steady state after 300 ms.
window.coldRuns = async (engine, id) => {
  await ready;
  const c = await load(id);
  let run;
  if (engine === 'onnx-wasm') {
    const s = await ow.InferenceSession.create(c.bytes);
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ow.Tensor(f.type, f.data, f.dims)]));
    run = async () => (await s.run(feeds)).out.dispose();
  } else {
    const s = await ort.InferenceSession.create(c.bytes, { executionProviders: ['wasm'] });
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)]));
    run = async () => { (await s.run(feeds)).out.dispose?.(); };
  }
  let t0 = performance.now();
  await run();
  const firstUs = (performance.now() - t0) * 1000;
  const each = [];
  const batch = performance.now();
  for (let k = 2; k <= 50; ++k) {
    t0 = performance.now();
    await run();
    each.push((performance.now() - t0) * 1000);
  }
  const meanUs = ((performance.now() - batch) / 49) * 1000;
  const coldUs = each.sort((a, b) => a - b)[24];
  const warm = performance.now();
  while (performance.now() - warm < 300) await run();
  return { engine, firstUs, coldUs, meanUs, steadyUs: await perRun(run) };
};

document.body.dataset.ready = '1';
