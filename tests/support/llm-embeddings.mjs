// The reference for examples/llm-embeddings (tests/js/llm-embeddings.test.mjs and
// tests/browser/llm-embeddings.test.mjs): onnxruntime-node running the example's files.
// - inputsEmbeds: onnxruntime-node's float16 Mul output (embed_tokens.onnx without its Cast, made
//   here), widened to float32 in JS. onnxruntime on the whole embed_tokens.onnx does not round the
//   Mul to float16: its CPU EP inserts Casts around the float16 Mul ("InsertedPrecisionFreeCast_*"
//   in the graph it saves with optimizedModelFilePath, at every optimization level), runs the Mul
//   in float32 and drops the Cast back to float16 before the model's Cast to float32. ONNX's
//   float16 Mul rounds, and onnx-wasm does.
// - whole: onnxruntime-node's output of the whole embed_tokens.onnx (unrounded, as above).
// - scores: next_model.onnx on inputsEmbeds; wholeScores: next_model.onnx on whole.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema } from 'onnx-buf';

export const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'examples/llm-embeddings');
const ort = createRequire(import.meta.url)('onnxruntime-node');

// embed_tokens.onnx without its Cast: its output is the Mul's, float16.
function withoutCast() {
  const m = fromBinary(ModelProtoSchema, readFileSync(join(dir, 'embed_tokens.onnx')));
  const cast = m.graph.node.findIndex((n) => n.opType === 'Cast');
  const mulOut = m.graph.node[cast].input[0];
  m.graph.node.splice(cast, 1);
  m.graph.output[0].name = mulOut;
  m.graph.output[0].type.value.value.elemType = 10;   // float16
  return toBinary(ModelProtoSchema, m);
}

// float16 bits -> float32 (exact).
function widen(u16) {
  return Float32Array.from(u16, (h) => {
    const sign = h & 0x8000 ? -1 : 1, exp = (h >>> 10) & 0x1f, man = h & 0x3ff;
    if (exp === 0) return sign * man * 2 ** -24;
    if (exp === 31) return man ? NaN : sign * Infinity;
    return sign * (1024 + man) * 2 ** (exp - 25);
  });
}

// (ids: bigint[], dims) -> { inputsEmbeds, whole, scores, wholeScores }, each { dims, data }.
export async function referenceRunner() {
  const embed = await ort.InferenceSession.create(join(dir, 'embed_tokens.onnx'));
  const embedHalf = await ort.InferenceSession.create(withoutCast(),
    { externalData: [{ path: 'embed_tokens.onnx_data', data: readFileSync(join(dir, 'embed_tokens.onnx_data')) }] });
  const next = await ort.InferenceSession.create(join(dir, 'next_model.onnx'));
  const plain = (t) => ({ dims: [...t.dims], data: t.data });
  return async (ids, dims) => {
    const feed = { input_ids: new ort.Tensor('int64', BigInt64Array.from(ids), dims) };
    const whole = (await embed.run(feed)).inputs_embeds;
    const half = Object.values(await embedHalf.run(feed))[0];
    const inputsEmbeds = { dims: [...half.dims], data: widen(half.data) };
    const { scores } = await next.run({ inputs_embeds: new ort.Tensor('float32', inputsEmbeds.data, inputsEmbeds.dims) });
    const wholeScores = (await next.run({ inputs_embeds: whole })).scores;
    return { inputsEmbeds, whole: plain(whole), scores: plain(scores), wholeScores: plain(wholeScores) };
  };
}

// The largest absolute difference of two arrays of numbers.
export const largest = (a, b) => Array.prototype.reduce.call(a, (m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
