// Writes the hand-over example's models into this folder (deterministic: the same bytes on every
// run; the files are committed, so the example needs no build step):
//
//   embed_tokens.onnx (+ embed_tokens.onnx_data)   the embedding stage of a 4-bit LLM export, in
//     the form transformers.js's q4 `embed_tokens` and onnxruntime-genai write it:
//       input_ids int64 [batch, seq]
//       -> com.microsoft GatherBlockQuantized(qweight, input_ids, scales; bits 4, block_size 16,
//          gather_axis 0, quantize_axis 1)   qweight uint8 [512, 24]: 48 4-bit codes a row, two a
//          byte (low bits first), default zero point 8; scales float16 [512, 3]: one per 16 codes
//       -> Mul by embed_scale, float16 6.93 (Gemma's round(sqrt(hidden), 2) for hidden 48)
//       -> Cast to float32
//       -> inputs_embeds float32 [batch, seq, 48]
//     opsets '' 21 and com.microsoft 1. qweight and scales are external data in
//     embed_tokens.onnx_data (as exporters store tables; 12,288 + 3,072 bytes), so a session may
//     keep qweight in its file (externalDataMode 'lazy').
//
//   next_model.onnx   a small model after the embedding, of ops onnxruntime-web's plain wasm
//     build runs: scores = ReduceMean(Softmax(MatMul(inputs_embeds, w), axis -1), axes [1],
//     keepdims 0): inputs_embeds float32 [batch, seq, 48], w float32 [48, 8], scores float32
//     [batch, 8]. Opset 17.
//
//   node examples/llm-embeddings/make-models.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema, TensorProto_DataType as DT } from 'onnx-buf';

const here = dirname(fileURLToPath(import.meta.url));
export const VOCAB = 512, HIDDEN = 48, BLOCK = 16, CLASSES = 8;
const DATA_FILE = 'embed_tokens.onnx_data';

// xorshift32: a fixed sequence of 32-bit words.
function words(seed) {
  let x = seed;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
}

// float -> float16 bits, round to nearest even (normal values, as these are).
function half(f) {
  const u = new Uint32Array(Float32Array.of(f).buffer)[0];
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 112, man = u & 0x7fffff;
  let h = (exp << 10) | (man >>> 13);
  const rest = man & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h += 1;
  return sign | h;
}

const dim = (d) => ({ value: typeof d === 'string' ? { case: 'dimParam', value: d } : { case: 'dimValue', value: BigInt(d) } });
const valueInfo = (name, elemType, dims) => ({ name, type: { value: { case: 'tensorType', value: { elemType, shape: { dim: dims.map(dim) } } } } });
const external = (name, dataType, dims, offset, length) => ({
  name, dataType, dims: dims.map(BigInt), dataLocation: 1,
  externalData: [['location', DATA_FILE], ['offset', String(offset)], ['length', String(length)]].map(([key, value]) => ({ key, value })),
});
const int = (name, i) => ({ name, type: 2, i: BigInt(i) });

function embedTokens() {
  const next = words(0x2545f491);
  const qweight = Uint8Array.from({ length: (VOCAB * HIDDEN) / 2 }, () => next() & 0xff);
  // Scales of both signs, magnitudes 0.004 to 0.02 (an embedding's range after the Mul).
  const scales = Uint16Array.from({ length: (VOCAB * HIDDEN) / BLOCK }, () => {
    const w = next();
    return half((w & 1 ? -1 : 1) * (0.004 + ((w >>> 8) % 1000) * 0.000016));
  });
  const data = new Uint8Array(qweight.byteLength + scales.byteLength);
  data.set(qweight, 0);
  data.set(new Uint8Array(scales.buffer), qweight.byteLength);
  const model = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 10n,
    producerName: 'onnx-wasm examples/llm-embeddings/make-models.mjs',
    opsetImport: [{ domain: '', version: 21n }, { domain: 'com.microsoft', version: 1n }],
    graph: {
      name: 'embed_tokens',
      node: [
        { opType: 'GatherBlockQuantized', domain: 'com.microsoft', name: '/model/embed_tokens/Gather_Quant',
          input: ['embed_tokens.qweight', 'input_ids', 'embed_tokens.scales'], output: ['/model/embed_tokens/Gather_Quant/output_0'],
          attribute: [int('bits', 4), int('block_size', BLOCK), int('gather_axis', 0), int('quantize_axis', 1)] },
        { opType: 'Mul', name: '/model/embed_tokens/Mul', input: ['/model/embed_tokens/Gather_Quant/output_0', 'embed_scale'], output: ['/model/embed_tokens/Mul/output_0'] },
        { opType: 'Cast', name: '/model/embed_tokens/Cast', input: ['/model/embed_tokens/Mul/output_0'], output: ['inputs_embeds'], attribute: [int('to', DT.FLOAT)] },
      ],
      initializer: [
        external('embed_tokens.qweight', DT.UINT8, [VOCAB, HIDDEN / 2], 0, qweight.byteLength),
        external('embed_tokens.scales', DT.FLOAT16, [VOCAB, HIDDEN / BLOCK], qweight.byteLength, scales.byteLength),
        { name: 'embed_scale', dataType: DT.FLOAT16, dims: [], rawData: new Uint8Array(Uint16Array.of(half(Math.round(Math.sqrt(HIDDEN) * 100) / 100)).buffer) },
      ],
      input: [valueInfo('input_ids', DT.INT64, ['batch_size', 'sequence_length'])],
      output: [valueInfo('inputs_embeds', DT.FLOAT, ['batch_size', 'sequence_length', HIDDEN])],
    },
  }));
  return { model, data };
}

function nextModel() {
  const next = words(0x9e3779b9);
  const w = Float32Array.from({ length: HIDDEN * CLASSES }, () => ((next() % 2001) - 1000) / 250);
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n,
    producerName: 'onnx-wasm examples/llm-embeddings/make-models.mjs',
    opsetImport: [{ domain: '', version: 17n }],
    graph: {
      name: 'next_model',
      node: [
        { opType: 'MatMul', name: 'project', input: ['inputs_embeds', 'w'], output: ['logits'] },
        { opType: 'Softmax', name: 'softmax', input: ['logits'], output: ['probs'], attribute: [int('axis', -1)] },
        { opType: 'ReduceMean', name: 'mean', input: ['probs'], output: ['scores'], attribute: [{ name: 'axes', type: 7, ints: [1n] }, int('keepdims', 0)] },
      ],
      initializer: [{ name: 'w', dataType: DT.FLOAT, dims: [BigInt(HIDDEN), BigInt(CLASSES)], rawData: new Uint8Array(w.buffer) }],
      input: [valueInfo('inputs_embeds', DT.FLOAT, ['batch_size', 'sequence_length', HIDDEN])],
      output: [valueInfo('scores', DT.FLOAT, ['batch_size', CLASSES])],
    },
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { model, data } = embedTokens();
  writeFileSync(join(here, 'embed_tokens.onnx'), model);
  writeFileSync(join(here, DATA_FILE), data);
  writeFileSync(join(here, 'next_model.onnx'), nextModel());
  console.log(`wrote embed_tokens.onnx (${model.byteLength} bytes), ${DATA_FILE} (${data.byteLength} bytes), next_model.onnx in ${here}`);
}
