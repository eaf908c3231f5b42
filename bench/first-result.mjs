// Time from a fresh process's first line to the first result of the tiny Gather, including
// every import, the module load, (session creation) and the run. The parent writes the model and
// inputs to a folder first, so nothing here is loaded before the clock starts. Prints { ms }.
//   node bench/first-result.mjs <onnx-wasm-runNode | onnx-wasm-runNode-1thread | onnx-wasm-session | onnxruntime-web> <dir>
// onnx-wasm is imported as `import 'onnx-wasm'` resolves in Node (dist/index.mjs).
const t0 = performance.now();
const [which, dir] = process.argv.slice(2);
// (process.getBuiltinModule: import('node:fs') alone would add 3 ms to every path measured)
const { readFileSync } = process.getBuiltinModule?.('node:fs') ?? await import('node:fs');
const model = readFileSync(`${dir}/model.onnx`);
const spec = JSON.parse(readFileSync(`${dir}/feeds.json`, 'utf8'));
const data = Float32Array.from(spec.data.data), idx = BigInt64Array.from(spec.indices.data.map(BigInt));
let out;
if (which.startsWith('onnx-wasm')) {
  const o = await import('../dist/index.mjs');
  await o.init(which.endsWith('1thread') ? { threads: false } : {});
  const feeds = { data: new o.Tensor('float32', data, spec.data.dims), indices: new o.Tensor('int64', idx, spec.indices.dims) };
  if (which.startsWith('onnx-wasm-runNode')) [out] = o.runNode({ opType: 'Gather', attributes: { axis: 0 } }, [feeds.data, feeds.indices], { opset: 13 });
  else out = (await (await o.InferenceSession.create(model)).run(feeds)).out;
} else {
  const { createRequire } = await import('node:module');
  const ort = createRequire(import.meta.url)('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  const s = await ort.InferenceSession.create(model);
  out = (await s.run({ data: new ort.Tensor('float32', data, spec.data.dims), indices: new ort.Tensor('int64', idx, spec.indices.dims) })).out;
}
if (out.dims[0] !== 3) throw new Error('unexpected output');
console.log(JSON.stringify({ ms: performance.now() - t0 }));
process.exit(0);
