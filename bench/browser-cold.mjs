// The cold-runs page of `npm run bench -- --browser`: one engine only (?engine=onnx-wasm or
// onnxruntime-web), so that no other engine's JavaScript has run in the page before its session
// (in Node, a harness that had run other JS first flattered the cold runs: bench/cold-runs.mjs).
// The tiny case's run 1, then runs 2 to 50 each timed alone, and the steady state after 300 ms,
// timed the same way (2,000 runs) and in batches; each run as `after(await run())`, as perRun
// times batches (browser-cases.mjs). The timer's resolution is 5 µs in the cross-origin isolated
// page bench/browser.mjs opens, so a median below a few ticks says little; the mean of the usual
// readings (timedEach) keeps the resolution. (The mean of the 44 fastest of
// runs 2 to 50, reported before, read low: for runs under a tick it dropped readings of one tick
// that were only rounding.) The timing loop (timedEach) is first run 200 times on a run that does
// nothing, before the engine is loaded, so that V8 compiles it before runs 2 to 50 and not during
// them: the loop in V8's interpreter and its compile had added about 45 µs to each page's runs 2
// to 50 (a few readings the estimator dropped as stalls, and some it kept). The engine's code is
// as cold as before (lab note docs/notes/2026-11-26-cold-runs-at-the-line.md). The result lands
// in document.body.dataset.cold.
import { load, perRun } from './browser-cases.mjs';

// `count` runs, each timed alone: the median reading, the mean of all, and the mean of the usual
// readings, those within two ticks of the median (what a run's time and the timer's rounding
// explain; a stall, a collection or a compile, reads more). A run shorter than a tick reads as 0
// or 5 µs, and the mean of such readings is the run's time: each clamped reading's expected
// value is the time it clamps.
async function timedEach(count, run, after) {
  const each = [];
  for (let k = 0; k < count; ++k) {
    const t0 = performance.now();
    after(await run());
    each.push((performance.now() - t0) * 1000);
  }
  each.sort((a, b) => a - b);
  const median = each[count >> 1];
  const usual = each.filter((x) => x <= median + 10);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { median, mean: mean(each), usual: mean(usual) };
}

const idle = { out: { dispose() {} } };
for (let k = 0; k < 4; ++k) await timedEach(50, () => Promise.resolve(idle), (r) => r.out.dispose());

const engine = new URLSearchParams(location.search).get('engine');
const c = await load('tiny');
let run, after;   // each run is `after(await run())`, as perRun times it (browser-cases.mjs)
if (engine === 'onnx-wasm') {
  const ow = await import('../dist/onnx-wasm.web.mjs');
  await ow.init();
  const s = await ow.InferenceSession.create(c.bytes);
  const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ow.Tensor(f.type, f.data, f.dims)]));
  run = () => s.run(feeds);
  after = (r) => r.out.dispose();
} else {
  const ort = await import('../ort/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = new URL('../ort/', import.meta.url).href;
  ort.env.logLevel = 'error';
  const s = await ort.InferenceSession.create(c.bytes, { executionProviders: ['wasm'] });
  const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)]));
  run = () => s.run(feeds);
  after = (r) => r.out.dispose?.();
}
const t0 = performance.now();
after(await run());
const firstUs = (performance.now() - t0) * 1000;
const cold = await timedEach(49, run, after);   // runs 2 to 50
const warm = performance.now();
while (performance.now() - warm < 300) after(await run());
// The steady state timed the same way (each run alone, so both carry the timer's own cost), and
// in batches.
const steady = await timedEach(2000, run, after);
document.body.dataset.cold = JSON.stringify({ engine, firstUs, coldUs: cold.median, coldUsualUs: cold.usual, coldMeanUs: cold.mean,
  steadyUs: steady.median, steadyUsualUs: steady.usual, steadyBatchUs: await perRun(run, after) });
