// Issue 30, item 5: the hand-over of examples/llm-embeddings (the Node example and its module
// hand-over.mjs): onnx-wasm runs embed_tokens.onnx (GatherBlockQuantized -> Mul -> Cast, 4-bit
// table in external data), onnxruntime-web (plain wasm build, one thread) runs next_model.onnx on
// its inputs_embeds; with the table in memory and kept in its file. Against onnxruntime-node:
// - inputs_embeds: byte for byte against onnxruntime-node's float16 Mul output (embed_tokens.onnx
//   without its Cast, made here), cast to float32. onnxruntime on the whole embed_tokens.onnx does
//   not round the Mul to float16: its CPU EP has no float16 Mul, so it runs the Mul in float32
//   between Casts it inserts, then drops the float32 -> float16 -> float32 pair before the model's
//   Cast, at every graph optimization level (onnxruntime-web too). ONNX's float16 Mul rounds;
//   onnx-wasm does. So against the whole model the outputs differ by that rounding: at most half a
//   float16 ulp (2^-11 relative), checked too.
// - scores: within 1e-6 absolute (probabilities in [0, 1]; onnxruntime-web's wasm MatMul and
//   onnxruntime-node's native one may round sums differently) of onnxruntime-node's next_model.onnx
//   on the same inputs_embeds; and within 2e-4 of onnxruntime-node running both models (8.5e-5 at most, measured).
// And what the example's comments say is copied: the ort.Tensor holds onnx-wasm's own
// Float32Array, and a later run leaves the output of a run before it alone.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema } from 'onnx-buf';
import { readFileSync } from 'node:fs';
import * as ow from '../../js/index.mjs';
import { createPipeline } from '../../examples/llm-embeddings/hand-over.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = join(repo, 'examples/llm-embeddings');
const require = createRequire(import.meta.url);
const ortNode = require('onnxruntime-node');
const ortWeb = require('onnxruntime-web');
ortWeb.env.wasm.numThreads = 1;
ortWeb.env.logLevel = 'error';
const TOLERANCE = 1e-6, WHOLE_TOLERANCE = 2e-4;

// Feeds: [ids, dims]. Negative ids count from the end of the 512 rows; repeated ids; one id.
function idCases() {
  let x = 0x1234567;
  const next = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
  return [
    [[1n, 17n, 300n, 511n, 42n, 42n, 0n, -1n], [2, 4]],
    [[7n], [1, 1]],
    [Array.from({ length: 3 * 37 }, () => BigInt((next() % 1024) - 512)), [3, 37]],
  ];
}

// embed_tokens.onnx without its Cast: its output is the Mul's, float16 (onnxruntime rounds it).
function withoutCast() {
  const m = fromBinary(ModelProtoSchema, readFileSync(join(dir, 'embed_tokens.onnx')));
  const cast = m.graph.node.findIndex((n) => n.opType === 'Cast');
  const mulOut = m.graph.node[cast].input[0];
  m.graph.node.splice(cast, 1);
  m.graph.output[0].name = mulOut;
  m.graph.output[0].type.value.value.elemType = 10;   // float16
  return toBinary(ModelProtoSchema, m);
}

let reference;
before(async () => {
  const embed = await ortNode.InferenceSession.create(join(dir, 'embed_tokens.onnx'));
  const embedHalf = await ortNode.InferenceSession.create(withoutCast(),
    { externalData: [{ path: 'embed_tokens.onnx_data', data: readFileSync(join(dir, 'embed_tokens.onnx_data')) }] });
  const nextModel = await ortNode.InferenceSession.create(join(dir, 'next_model.onnx'));
  const cast = (half) => ow.runNode({ opType: 'Cast', attributes: { to: 1 } }, [new ow.Tensor('float16', half.data, half.dims)], { opset: 21 })[0];
  reference = async (ids, dims) => {
    const feed = { input_ids: new ortNode.Tensor('int64', BigInt64Array.from(ids), dims) };
    const whole = (await embed.run(feed)).inputs_embeds;
    const half = Object.values(await embedHalf.run(feed))[0];
    const rounded = cast(half);
    const inputsEmbeds = { dims: [...rounded.dims], data: rounded.data.slice() };
    rounded.dispose();
    const { scores } = await nextModel.run({ inputs_embeds: new ortNode.Tensor('float32', inputsEmbeds.data, inputsEmbeds.dims) });
    const wholeScores = (await nextModel.run({ inputs_embeds: whole })).scores;
    return { inputsEmbeds, whole, scores, wholeScores };
  };
});

const largest = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

const bytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

for (const mode of ['memory', 'lazy']) {
  test(`hand-over (externalDataMode '${mode}'): inputs_embeds byte for byte against onnxruntime-node's float16 Mul, scores within ${TOLERANCE}`, async () => {
    const pipeline = await createPipeline(ow, ortWeb, {
      embedTokens: join(dir, 'embed_tokens.onnx'), nextModel: join(dir, 'next_model.onnx'), embedOptions: { externalDataMode: mode },
    });
    try {
      assert.equal(pipeline.embed.valueInfo('embed_tokens.qweight')?.storage, mode === 'lazy' ? 'file' : 'memory');
      assert.equal(pipeline.embed.valueInfo('embed_tokens.scales')?.storage, 'memory');
      for (const [ids, dims] of idCases()) {
        const got = await pipeline.run(ids, dims);
        const want = await reference(ids, dims);
        assert.equal(got.zeroCopy, true, 'the ort.Tensor holds onnx-wasm\'s Float32Array');
        assert.deepEqual(got.inputsEmbeds.dims, [...dims, 48]);
        assert.deepEqual(got.inputsEmbeds.dims, want.inputsEmbeds.dims);
        assert.ok(Buffer.from(bytes(got.inputsEmbeds.data)).equals(Buffer.from(bytes(want.inputsEmbeds.data))), `inputs_embeds of ${dims}`);
        assert.deepEqual(got.scores.dims, [dims[0], 8]);
        for (let i = 0; i < got.inputsEmbeds.data.length; ++i) {
          const x = got.inputsEmbeds.data[i], y = want.whole.data[i];
          assert.ok(Math.abs(x - y) <= Math.abs(y) * 2 ** -11, `inputs_embeds[${i}] of ${dims}: ${x} against onnxruntime-node's unrounded ${y}`);
        }
        const worst = largest(got.scores.data, want.scores.data);
        assert.ok(worst <= TOLERANCE, `scores of ${dims}: largest difference ${worst}`);
        const worstWhole = largest(got.scores.data, want.wholeScores.data);
        assert.ok(worstWhole <= WHOLE_TOLERANCE, `scores of ${dims} against onnxruntime-node's two models: largest difference ${worstWhole}`);
        console.log(`# ${mode} [${dims}]: scores within ${worst} (same inputs_embeds) and ${worstWhole} (onnxruntime-node's two models)`);
        // (the scores are not trivially equal: each sequence's probabilities sum to 1 and differ)
        assert.ok(Math.abs(got.scores.data.subarray(0, 8).reduce((a, b) => a + b, 0) - 1) < 1e-5);
      }
    } finally {
      await pipeline.release();
    }
  });
}

test("a run's output stays valid through later runs while it lives: no later run writes its memory", async () => {
  const session = await ow.InferenceSession.create(join(dir, 'embed_tokens.onnx'));
  const first = (await session.run({ input_ids: new ow.Tensor('int64', [3n, 4n], [1, 2]) })).inputs_embeds;
  const view = first.data, copy = view.slice();
  for (let k = 0; k < 5; ++k) (await session.run({ input_ids: new ow.Tensor('int64', [5n + BigInt(k), 6n], [1, 2]) })).inputs_embeds.dispose();
  // (a view made before memory grew is detached in a one-thread build; data gives a fresh one)
  assert.deepEqual(first.data, copy);
  if (view.byteLength > 0) assert.deepEqual(view, copy);   // (the threads build, or memory that did not grow)
  first.dispose();
  await session.release();
});

test('the Node example (npm start runs it) prints its hand-over', () => {
  const out = execFileSync(process.execPath, [join(repo, 'examples/llm-embeddings.mjs')], { encoding: 'utf8' });
  assert.match(out, /kept in 'embed_tokens\.onnx_data' \(storage 'file'\)/);
  assert.match(out, /no copy: true/);
  assert.match(out, /scores \[2,8\]/);
});
