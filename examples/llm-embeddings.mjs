// The embedding stage of an LLM export in onnx-wasm, handed over to onnxruntime-web for the next
// model (docs/llm-embeddings.md). embed_tokens.onnx is a 4-bit quantized token embedding as
// transformers.js and onnxruntime-genai export it (com.microsoft GatherBlockQuantized -> Mul ->
// Cast; its table in embed_tokens.onnx_data), next_model.onnx a small model on inputs_embeds
// (MatMul -> Softmax -> ReduceMean); examples/llm-embeddings/make-models.mjs wrote both.
// The hand-over itself, and what it copies: examples/llm-embeddings/hand-over.mjs (the same code
// runs in a browser page: examples/llm-embeddings/index.html).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ow from '../js/index.mjs';
import { createPipeline } from './llm-embeddings/hand-over.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), 'llm-embeddings');
// onnxruntime-web in Node: its package's Node entry, the plain wasm build (the .wasm read from
// node_modules/onnxruntime-web/dist), one thread.
const ort = createRequire(import.meta.url)('onnxruntime-web');
ort.env.wasm.numThreads = 1;

const pipeline = await createPipeline(ow, ort, {
  embedTokens: join(here, 'embed_tokens.onnx'),
  nextModel: join(here, 'next_model.onnx'),
  // The quantized table stays in its file: each run reads the rows of its ids.
  embedOptions: { externalDataMode: 'lazy' },
});
const info = pipeline.embed.valueInfo('embed_tokens.qweight');
console.log(`embed_tokens.qweight: ${info?.type} [${info?.dims}], ${info?.bytes} bytes, kept in '${info?.location}' (storage '${info?.storage}')`);

// Two sequences of 4 token ids (a negative id counts from the end, as GatherBlockQuantized allows).
const { inputsEmbeds, scores, zeroCopy } = await pipeline.run([1n, 17n, 300n, 511n, 42n, 42n, 0n, -1n], [2, 4]);
console.log(`onnx-wasm        inputs_embeds [${inputsEmbeds.dims}], row 0 starts`, Array.from(inputsEmbeds.data.subarray(0, 4), (v) => +v.toFixed(4)).join(' '));
console.log(`hand-over        ort.Tensor over onnx-wasm's Float32Array, no copy: ${zeroCopy}`);
console.log(`onnxruntime-web  scores [${scores.dims}]`);
for (let b = 0; b < scores.dims[0]; ++b) console.log(`  sequence ${b}:`, Array.from(scores.data.subarray(b * 8, b * 8 + 8), (v) => v.toFixed(3)).join(' '));
await pipeline.release();
