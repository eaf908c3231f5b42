// The hand-over, the same code in Node and in browsers (the caller passes both packages): onnx-wasm
// runs the embedding stage of an LLM export (embed_tokens.onnx: input_ids -> inputs_embeds), and
// onnxruntime-web runs the next model on its output (next_model.onnx: inputs_embeds -> scores).
//
// What is copied, from the ids to the scores:
// 1. ids -> onnx-wasm: `new Tensor('int64', ids, dims)` copies the ids into onnx-wasm's wasm
//    memory, once.
// 2. The embedding: GatherBlockQuantized reads only the rows of those ids (from wasm memory, or from
//    the file with externalDataMode 'lazy') and dequantizes them into the run's output tensor, which
//    lives in onnx-wasm's wasm memory. `inputs_embeds.data` is a Float32Array view of it: no copy.
// 3. The hand-over: `new ort.Tensor('float32', inputs_embeds.data, dims)` keeps that same
//    Float32Array (feed.data === inputs_embeds.data): no copy.
// 4. onnxruntime-web's run copies the floats into its own wasm memory (one copy of
//    batch x seq x hidden x 4 bytes: the two modules have separate memories) and copies its output
//    out into a new Float32Array.
// The view of step 3 is valid only while the onnx-wasm tensor lives and onnx-wasm's memory does
// not move. So, until onnxruntime-web's run has resolved:
// - do not dispose `inputs_embeds` (its memory would go to the next tensor onnx-wasm makes);
// - do not run anything else in onnx-wasm (a call that grows wasm memory detaches the views of a
//   one-thread build: the view would read as empty; the threads build's shared memory does not
//   detach).
// With env.wasm.proxy = true onnxruntime-web runs in a worker and posts the feed's buffer to it as
// a transfer, which the memory of a wasm module cannot be (Chromium: "TypeError: Failed to execute
// 'postMessage' on 'Worker': ArrayBuffer at index 0 is not detachable and could not be
// transferred"): the feed is then a copy, `inputs_embeds.data.slice()`, whose buffer is moved to
// the worker; the onnx-wasm tensor may be disposed at once.

/**
 * @param {typeof import('onnx-wasm')} ow onnx-wasm
 * @param {typeof import('onnxruntime-web')} ort onnxruntime-web (its plain wasm build)
 * @param {{ embedTokens: string | Uint8Array, nextModel: string | Uint8Array, embedOptions?: import('onnx-wasm').SessionOptions }} models
 *   the two models (a path in Node, a URL in browsers, or bytes) and onnx-wasm's session options
 */
export async function createPipeline(ow, ort, { embedTokens, nextModel, embedOptions = {} }) {
  const embed = await ow.InferenceSession.create(embedTokens, embedOptions);
  const next = await ort.InferenceSession.create(nextModel, { executionProviders: ['wasm'] });
  return {
    embed,
    next,
    // ids: int64 values (a BigInt64Array or bigint[]), dims [batch, seq]. Returns onnx-wasm's
    // inputs_embeds (copied out, for the caller to compare) and onnxruntime-web's scores.
    async run(/** @type {BigInt64Array | bigint[]} */ ids, /** @type {number[]} */ dims) {
      const inputIds = new ow.Tensor('int64', ids, dims);
      const { inputs_embeds } = await embed.run({ input_ids: inputIds });
      inputIds.dispose();
      try {
        const data = ort.env.wasm.proxy ? inputs_embeds.data.slice() : inputs_embeds.data;
        const feed = new ort.Tensor('float32', data, inputs_embeds.dims);
        const { scores } = await next.run({ inputs_embeds: feed });
        return {
          inputsEmbeds: { dims: [...inputs_embeds.dims], data: inputs_embeds.data.slice() },
          scores: { dims: [...scores.dims], data: /** @type {Float32Array} */ (scores.data) },
          zeroCopy: feed.data === inputs_embeds.data,   // (false with the proxy: a copy)
        };
      } finally {
        inputs_embeds.dispose();   // after onnxruntime-web's run: its feed was a view of this tensor
      }
    },
    async release() {
      await embed.release();
      await next.release();
    },
  };
}
