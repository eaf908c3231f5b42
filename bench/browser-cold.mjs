// The cold-runs page of `npm run bench -- --browser`: one engine only (?engine=onnx-wasm or
// onnxruntime-web), so that no other engine's JavaScript has run in the page before its session
// (in Node, a harness that had run other JS first flattered the cold runs: bench/cold-runs.mjs).
// The tiny case's run 1, then runs 2 to 50 each timed alone (their median, at the timer's
// resolution: 5 µs in the cross-origin isolated page bench/browser.mjs opens) and as one batch
// (their mean), and the steady state after 300 ms. A run shorter than a tick reads as 0 or 5 µs,
// so the median says little below 5 µs; the mean of the 44 fastest readings (the slowest 5
// dropped: garbage collection, compiles) keeps the resolution the median loses, each reading
// being a tick count whose expected value is the run's time. The result lands in
// document.body.dataset.cold.
import { load, perRun } from './browser-cases.mjs';

const engine = new URLSearchParams(location.search).get('engine');
const c = await load('tiny');
let run;
if (engine === 'onnx-wasm') {
  const ow = await import('../dist/onnx-wasm.web.mjs');
  await ow.init();
  const s = await ow.InferenceSession.create(c.bytes);
  const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ow.Tensor(f.type, f.data, f.dims)]));
  run = async () => (await s.run(feeds)).out.dispose();
} else {
  const ort = await import('../ort/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = new URL('../ort/', import.meta.url).href;
  ort.env.logLevel = 'error';
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
each.sort((a, b) => a - b);
const coldUs = each[24];
const trimmedUs = each.slice(0, 44).reduce((a, b) => a + b, 0) / 44;
const warm = performance.now();
while (performance.now() - warm < 300) await run();
document.body.dataset.cold = JSON.stringify({ engine, firstUs, coldUs, trimmedUs, meanUs, steadyUs: await perRun(run) });
