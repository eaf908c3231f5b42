// The torch exports of issue 29 (tests/fixtures/torch: small modules of embedding lookups and the
// reshapes, slices and scales around them, exported by torch.onnx.export at opsets 9 to 17, static
// and dynamic, with and without constant folding; see its README), run with no torch installed.
// Every model either loads and gives torch's outputs byte for byte (type, dims, bytes) on every
// case of the manifest, or is refused at create() with an UnsupportedOpError naming the ops it
// uses that the registry does not have. Which ops those may be is not written here: it is every op
// of the model that opVersions() does not list, so a model becomes required to match as soon as
// its ops land in the registry. A model that runs and differs, or fails any other way, fails.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { fromBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema } from 'onnx-buf';
import { init, InferenceSession, Tensor, opVersions, UnsupportedOpError } from '../../js/index.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/torch');
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));

// The ops a model may be refused for: those the registry lacks (Constant the session makes itself).
const opKey = (domain, op) => (domain && domain !== 'ai.onnx' ? `${op} (domain '${domain}')` : op);
const RUNNABLE = new Set([...opVersions().map((v) => opKey(v.domain, v.op)), 'Constant']);
// The ops of these exports not supported yet: the one list a refusal may name.
const NOT_YET = new Set(manifest.models.flatMap((m) => m.ops).filter((op) => !RUNNABLE.has(op)));

const ARRAYS = {
  float32: Float32Array, float16: Uint16Array, int64: BigInt64Array, int32: Int32Array,
  int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

function tensorOf({ type, dims, data }) {
  const bytes = Buffer.from(data, 'base64');
  const Array = ARRAYS[type];
  assert.ok(Array, `the manifest has a tensor of type ${type}, which this test does not read`);
  // (a copy: the typed array needs its own aligned buffer)
  return new Tensor(type, new Array(new Uint8Array(bytes).buffer), dims);
}

const bytesOf = (d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength);

const counts = { matched: 0, refused: 0 };
const refusedBy = new Map();   // 'Op+Op' -> [model names]

test('the manifest lists every model file, and every model has a file', () => {
  const files = readdirSync(join(root, 'models')).filter((f) => f.endsWith('.onnx')).sort();
  assert.deepEqual(files, manifest.models.map((m) => `${m.name}.onnx`).sort());
  assert.ok(manifest.models.length >= 500, `${manifest.models.length} models`);
});

for (const entry of manifest.models) {
  test(`${entry.name}: torch's outputs byte for byte, or refused for ops the registry lacks`, async () => {
    const bytes = readFileSync(join(root, 'models', `${entry.name}.onnx`));
    const model = fromBinary(ModelProtoSchema, bytes);
    const ops = [...new Set(model.graph.node.map((n) => opKey(n.domain, n.opType)))].sort();
    assert.deepEqual(ops, entry.ops, "the manifest's op list is the model's");
    const missing = ops.filter((op) => NOT_YET.has(op));

    let session;
    try {
      session = await InferenceSession.create(bytes);
    } catch (e) {
      assert.ok(missing.length > 0, `refused though the registry has all its ops: ${e}`);
      assert.ok(e instanceof UnsupportedOpError, `refused with ${e?.name}, not UnsupportedOpError: ${e?.message}`);
      for (const op of missing) {
        const word = new RegExp(`(?<![A-Za-z])${op.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])`);
        assert.match(e.message, word, `the refusal does not name ${op}`);
      }
      counts.refused += 1;
      const key = missing.join('+');
      refusedBy.set(key, [...(refusedBy.get(key) ?? []), entry.name]);
      return;
    }
    try {
      assert.deepEqual(missing, [], 'loaded, though it uses ops the registry does not list');
      // Every case, then the first again: a dynamic model goes back to the dims it ran first (what
      // a session keeps per set of input dims must follow them); a static one runs twice.
      for (const k of [...entry.cases.keys(), 0]) {
        const c = entry.cases[k];
        // Inputs by name (a folded export can drop an input it no longer reads); outputs by
        // position (torch names an output that is a folded constant after its initializer).
        const feeds = Object.fromEntries(c.inputs.filter((i) => session.inputNames.includes(i.name)).map((i) => [i.name, tensorOf(i)]));
        assert.equal(session.outputNames.length, c.outputs.length, 'number of outputs');
        const outs = await session.run(feeds);
        try {
          c.outputs.forEach((want, j) => {
            const got = outs[session.outputNames[j]];
            const at = `case ${k} (ids ${JSON.stringify(c.inputs[0].dims)}), output ${j}`;
            assert.equal(got.type, want.type, `${at}: type`);
            assert.deepEqual([...got.dims], want.dims, `${at}: dims`);
            const g = bytesOf(got.data), w = Buffer.from(want.data, 'base64');
            const first = g.findIndex((b, i) => b !== w[i]);
            assert.ok(g.length === w.length && first < 0, `${at}: bytes differ (${g.length} against ${w.length}, first at byte ${first})`);
          });
        } finally {
          for (const t of Object.values(feeds)) t.dispose();
          for (const t of Object.values(outs)) t.dispose();
        }
      }
      counts.matched += 1;
    } finally {
      await session.release();
    }
  });
}

test('counts: matched, refused (by the ops the registry lacks), total', (t) => {
  const total = manifest.models.length;
  t.diagnostic(`ops of these exports not in the registry yet: ${[...NOT_YET].sort().join(', ') || 'none'}`);
  t.diagnostic(`torch exports: ${counts.matched} match torch byte for byte, ${counts.refused} refused, of ${total} (${manifest.failed.length} combinations torch could not export)`);
  for (const [ops, names] of [...refusedBy].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    const modules = [...new Set(names.map((n) => n.split('.')[0]))];
    t.diagnostic(`refused for ${ops}: ${names.length} (${modules.join(', ')})`);
  }
  // Every model was either matched or refused: a failure above is neither.
  assert.equal(counts.matched + counts.refused, total);
  // Issue 29's bar: at least 95% match; the rest are the opset-9 decompositions of torch.gather
  // (OneHot, ReduceSum) and of arange (NonZero, Transpose), refused for those ops.
  assert.ok(counts.matched >= 0.95 * total, `${counts.matched} of ${total} match`);
  for (const [ops, names] of refusedBy) {
    assert.ok(/OneHot|NonZero/.test(ops), `refused for ${ops}: ${names.join(', ')}`);
    assert.ok(names.every((n) => /^(torch_gather|emb_arange)\.op9\./.test(n)), `refused for ${ops}: ${names.join(', ')}`);
  }
});
