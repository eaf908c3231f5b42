// Issue 30, item 5: the hand-over of examples/llm-embeddings (the Node example and its module
// hand-over.mjs): onnx-wasm runs embed_tokens.onnx (GatherBlockQuantized -> Mul -> Cast, 4-bit
// table in external data), onnxruntime-web (plain wasm build, one thread) runs next_model.onnx on
// its inputs_embeds; with the table in memory and kept in its file. Against onnxruntime-node:
// - inputs_embeds: byte for byte against onnxruntime-node's float16 Mul output (embed_tokens.onnx
//   without its Cast), widened to float32 (tests/support/llm-embeddings.mjs says why: onnxruntime
//   on the whole embed_tokens.onnx runs the float16 Mul in float32 and skips its rounding, at every
//   graph optimization level, onnxruntime-web too; ONNX's float16 Mul rounds, and onnx-wasm does).
//   Against the whole model the outputs differ by that rounding: at most half a float16 ulp (2^-11
//   relative), checked too.
// - scores: within 1e-6 absolute (probabilities in [0, 1]; onnxruntime-web's wasm MatMul and
//   onnxruntime-node's native one may round sums differently) of onnxruntime-node's next_model.onnx
//   on the same inputs_embeds; and within 2e-4 of onnxruntime-node running both models (8.5e-5 at most, measured).
// And what the example's comments say is copied: the ort.Tensor holds onnx-wasm's own
// Float32Array, and a later run leaves the output of a run before it alone.
// The default build in Node is the threads build (2 cores or more); ONNXWASM_TEST_INIT='{"threads":false}'
// runs this file on the one-thread build (tests/browser/llm-embeddings.test.mjs runs that one in Chromium).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import * as ow from '../../js/index.mjs';
import { createPipeline } from '../../examples/llm-embeddings/hand-over.mjs';
import { dir, largest, referenceRunner } from '../support/llm-embeddings.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
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

let reference;
before(async () => {
  await ow.init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
  reference = await referenceRunner();
});

const bytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

for (const mode of ['memory', 'lazy']) {
  test(`hand-over (externalDataMode '${mode}'): inputs_embeds byte for byte against onnxruntime-node's float16 Mul, scores within ${TOLERANCE}`, async () => {
    const pipeline = await createPipeline(ow, ortWeb, {
      embedTokens: join(dir, 'embed_tokens.onnx'), nextModel: join(dir, 'next_model.onnx'), embedOptions: { externalDataMode: mode },
    });
    try {
      assert.equal(pipeline.embed.valueInfo('embed_tokens.qweight')?.storage, mode === 'lazy' ? 'file' : 'memory');
      // (the scales are read with the table's rows: kept where it is)
      assert.equal(pipeline.embed.valueInfo('embed_tokens.scales')?.storage, mode === 'lazy' ? 'file' : 'memory');
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
