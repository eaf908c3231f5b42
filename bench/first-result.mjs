// Time from a fresh process's first line to the first result of a one-node model (the tiny
// Gather), including import, module load, session creation and the run. Prints { ms }.
const which = process.argv[2];
const { benchCases } = await import('./models.mjs');
const tiny = benchCases({ small: true }).find((c) => c.id === 'tiny');
const t0 = performance.now();   // building the model is not part of the measured time
let out;
if (which === 'onnx-wasm') {
  const o = await import('../js/index.mjs');
  await o.init();
  const s = await o.InferenceSession.create(tiny.bytes);
  out = (await s.run(Object.fromEntries(Object.entries(tiny.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)])))).out;
} else {
  const { createRequire } = await import('node:module');
  const ort = createRequire(import.meta.url)('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  const s = await ort.InferenceSession.create(tiny.bytes);
  out = (await s.run(Object.fromEntries(Object.entries(tiny.feeds).map(([k, f]) => [k, new ort.Tensor(f.type, f.data, f.dims)])))).out;
}
if (out.dims[0] !== 3) throw new Error('unexpected output');
console.log(JSON.stringify({ ms: performance.now() - t0 }));
