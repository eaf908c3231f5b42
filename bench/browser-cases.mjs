// Shared by the pages of `npm run bench -- --browser`: a case as bench/browser.mjs wrote it, and
// per-run timing in batches (browsers coarsen performance.now()).
// { bytes, feeds: { name: { type, data, dims } } } of a case bench/browser.mjs wrote (writeCaseFiles).
export async function load(id) {
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
// median of 5 batches. A slow engine gets one batch of at least 3 runs. Each run is
// `after(await run())`: one await a run, as a caller's loop has. (Wrapping each run in an async
// arrow of its own cost the harness, not the engine, 3.25 µs a run in Firefox ESR 153, 0.07 µs
// in Chromium: an async function that awaits, awaited.)
export async function perRun(run, after = () => {}) {
  let n = 1, ms = 0;
  for (;;) {
    const t0 = performance.now();
    for (let k = 0; k < n; ++k) after(await run());
    ms = performance.now() - t0;
    if (ms >= 100 || n >= 16384) break;
    n *= 2;
  }
  if (ms > 1500) return (ms / n) * 1000;
  const batches = [];
  for (let b = 0; b < 5; ++b) {
    const t0 = performance.now();
    for (let k = 0; k < n; ++k) after(await run());
    batches.push(((performance.now() - t0) / n) * 1000);
  }
  return batches.sort((a, b) => a - b)[2];
}
