// The browser half of the hand-over example (index.html): the same createPipeline as Node's
// examples/llm-embeddings.mjs. onnx-wasm fetches embed_tokens.onnx and its external data next to
// it (loaded into wasm memory; with ?cache=opfs kept in OPFS and read by rows), onnxruntime-web
// fetches next_model.onnx (with ?proxy, and runs it, in a worker). The result lands in the page and, for tests/browser/llm-embeddings.test.mjs,
// in document.body.dataset.result.
import * as ow from 'onnx-wasm';
import * as ort from 'onnxruntime-web';
import { createPipeline } from './hand-over.mjs';

const log = document.getElementById('log');
const query = new URLSearchParams(location.search);
const cache = query.get('cache') === 'opfs' ? 'opfs' : undefined;
try {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = query.has('proxy');   // onnxruntime-web in a worker of its own
  ort.env.wasm.wasmPaths = new URL('../../node_modules/onnxruntime-web/dist/', location.href).href;
  const pipeline = await createPipeline(ow, ort, {
    embedTokens: new URL('embed_tokens.onnx', location.href).href,
    nextModel: new URL('next_model.onnx', location.href).href,
    embedOptions: cache ? { cache, externalDataMode: 'lazy' } : {},
  });
  const storage = pipeline.embed.valueInfo('embed_tokens.qweight')?.storage;
  const { inputsEmbeds, scores, zeroCopy } = await pipeline.run([1n, 17n, 300n, 511n, 42n, 42n, 0n, -1n], [2, 4]);
  await pipeline.release();
  log.textContent = [
    `onnx-wasm ${ow.runtime().module}: embed_tokens.qweight in ${storage}; inputs_embeds [${inputsEmbeds.dims}]`,
    zeroCopy ? "hand-over: ort.Tensor over onnx-wasm's Float32Array, no copy" : 'hand-over: a copy of inputs_embeds, moved to onnxruntime-web\'s worker (proxy)',
    `onnxruntime-web ${ort.env.versions.web}: scores [${scores.dims}]`,
    ...[0, 1].map((b) => `  sequence ${b}: ${Array.from(scores.data.subarray(b * 8, b * 8 + 8), (v) => v.toFixed(3)).join(' ')}`),
  ].join('\n');
  document.body.dataset.result = JSON.stringify({
    module: ow.runtime().module, storage, zeroCopy, proxy: ort.env.wasm.proxy,
    // (the float32 bits: JSON would write -0 as 0)
    inputsEmbeds: { dims: inputsEmbeds.dims, bits: Array.from(new Uint32Array(inputsEmbeds.data.buffer)) },
    scores: { dims: scores.dims, data: Array.from(scores.data) },
  });
} catch (e) {
  log.textContent = String(e?.stack ?? e);
  document.body.dataset.result = JSON.stringify({ error: String(e?.stack ?? e) });
}
