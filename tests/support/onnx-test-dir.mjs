// ONNX backend-test folders (model.onnx + test_data_set_N/{input,output}_K.pb): find them, run
// them through InferenceSession and compare every output's type, dims and bytes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tensorFromProtoBytes } from '../../js/model/tensor-proto.mjs';
import { InferenceSession } from '../../js/index.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// The ops this runtime covers, by test-folder name (test_gather_* holds Gather's and GatherElements'
// test_gather_elements_*, test_gathernd_* GatherND's; test_identity_opt and test_identity_sequence
// take optional and sequence values, not tensors; test_squeezenet is a model; the
// test_range_*_expanded folders run Range's function body, a Loop).
export const OUR_TESTS = /^test_(gather_|gathernd_|flatten|reshape|concat_|shape($|_)|size($|_)|identity$|squeeze($|_)|unsqueeze_|Embedding|operator_flatten$|operator_view$|slice($|_)|range_(?!.*_expanded$)|constantofshape_|cast_|castlike_|dequantizelinear|(add|sub|mul|div)($|_)|operator_add(_broadcast|_size1_broadcast|_size1_right_broadcast|_size1_singleton_broadcast|constant)$)/;

// Folders of our ops that are listed but skipped, with the reason (each checked by hand against
// the test data; the suite is ONNX 1.12's):
// - bfloat16 data: ONNX 1.12 stored bfloat16 tensors of the test data as uint16 (data_type 4), so
//   a feed has the wrong type for the model's input, or the expected output the wrong type for
//   its output; its expected float -> bfloat16 values are also truncated, where ONNX 1.13 and
//   later, onnxruntime and this runtime round to nearest even (7 of its 12 values agree).
// - float to string: the expected strings are numpy's shortest round-trip form ('0.6048455');
//   onnxruntime, and this runtime, print '%.8g' ('0.60484552'): 3 of the 12 values differ.
const BFLOAT16_AS_UINT16 = 'ONNX 1.12 stores this test\'s bfloat16 tensors as uint16 (data_type 4), and truncates float -> bfloat16 (this runtime rounds to nearest even, as onnxruntime and ONNX 1.13+)';
const FLOAT_STRINGS = "the expected strings are numpy's shortest form ('0.6048455'); this runtime prints '%.8g' as onnxruntime does ('0.60484552'): 3 of 12 differ";
export const SKIPPED = {
  test_cast_BFLOAT16_to_FLOAT: BFLOAT16_AS_UINT16,
  test_cast_FLOAT_to_BFLOAT16: BFLOAT16_AS_UINT16,
  test_castlike_BFLOAT16_to_FLOAT: BFLOAT16_AS_UINT16,
  test_castlike_BFLOAT16_to_FLOAT_expanded: BFLOAT16_AS_UINT16,
  test_castlike_FLOAT_to_BFLOAT16: BFLOAT16_AS_UINT16,
  test_castlike_FLOAT_to_BFLOAT16_expanded: BFLOAT16_AS_UINT16,
  test_cast_FLOAT_to_STRING: FLOAT_STRINGS,
  test_castlike_FLOAT_to_STRING: FLOAT_STRINGS,
  test_castlike_FLOAT_to_STRING_expanded: FLOAT_STRINGS,
};

// Where the suites are: ../shared/onnx-node-tests next to the repository (ONNX 1.22), and
// Debian's libonnx-testdata (ONNX 1.12). ONNX_NODE_TESTS overrides the first.
export function suiteRoots() {
  const shared = [process.env.ONNX_NODE_TESTS, join(repo, '../shared/onnx-node-tests'), '/work/shared/onnx-node-tests']
    .find((p) => p && existsSync(p));
  return {
    'onnx-1.22': shared ?? null,
    'onnx-1.12 (libonnx-testdata)': existsSync('/usr/share/libonnx-testdata/data') ? '/usr/share/libonnx-testdata/data' : null,
  };
}

// [{ suite, name, dir }] for every test folder of our ops under a suite root (one level of
// groups: node/, pytorch-converted/, pytorch-operator/, ...).
export function listTestDirs(root) {
  const out = [];
  for (const group of readdirSync(root, { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    for (const t of readdirSync(join(root, group.name), { withFileTypes: true })) {
      if (t.isDirectory() && OUR_TESTS.test(t.name) && existsSync(join(root, group.name, t.name, 'model.onnx')))
        out.push({ group: group.name, name: t.name, dir: join(root, group.name, t.name) });
    }
  }
  return out.sort((a, b) => (a.group + a.name).localeCompare(b.group + b.name));
}

function readSet(dir, prefix) {
  return Promise.all(readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.pb'))
    .sort((a, b) => Number(a.slice(prefix.length, -3)) - Number(b.slice(prefix.length, -3)))
    .map((f) => tensorFromProtoBytes(readFileSync(join(dir, f)))));
}

function bytesOf(t) {
  if (t.type === 'string') return Buffer.from(JSON.stringify(Array.from(t.data)));
  const d = t.data;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

// Runs every test_data_set of one folder, twice with the same feeds: the first run checks them
// (the general path), the second takes a one-node graph's plan (js/model/session.mjs). Returns
// the number of outputs compared (once per set); throws an Error naming the set, the run, the
// output and the first difference.
export async function checkTestDir(dir) {
  const session = await InferenceSession.create(join(dir, 'model.onnx'));
  let compared = 0;
  try {
    const sets = readdirSync(dir).filter((f) => f.startsWith('test_data_set_')).sort();
    if (sets.length === 0) throw new Error(`${dir} has no test_data_set_N folder`);
    for (const set of sets) {
      const inputs = await readSet(join(dir, set), 'input_');
      const expected = await readSet(join(dir, set), 'output_');
      try {
        const feeds = {};
        inputs.forEach(({ name, tensor }, k) => { feeds[name || session.inputNames[k]] = tensor; });
        compared += await checkRun(session, feeds, expected, `${set}, run 1`);
        await checkRun(session, feeds, expected, `${set}, run 2`);
      } finally {
        for (const { tensor } of [...inputs, ...expected]) tensor.dispose();
      }
    }
  } finally {
    await session.release();
  }
  return compared;
}

// One run of a set's feeds, its outputs compared with `expected`; returns how many it compared.
async function checkRun(session, feeds, expected, label) {
  const results = await session.run(feeds);
  try {
    expected.forEach(({ name, tensor: want }, k) => {
      const key = name || session.outputNames[k];
      const got = results[key];
      const where = `${label}, output '${key}'`;
      if (!got) throw new Error(`${where}: not returned`);
      if (got.type !== want.type) throw new Error(`${where}: type ${got.type}, expected ${want.type}`);
      if (got.dims.join() !== want.dims.join()) throw new Error(`${where}: dims [${got.dims}], expected [${want.dims}]`);
      const a = bytesOf(got), b = bytesOf(want);
      if (!a.equals(b)) {
        let i = 0;
        while (i < a.length && a[i] === b[i]) i++;
        throw new Error(`${where}: bytes differ first at byte ${i} of ${b.length}`);
      }
      // Shapes inferred at load time must agree with what the run produced.
      const meta = session.outputMetadata.find((m) => m.name === key);
      if (meta?.shape) meta.shape.forEach((d, i) => {
        if (typeof d === 'number' && d !== got.dims[i]) throw new Error(`${where}: inferred dimension ${i} = ${d}, ran ${got.dims[i]}`);
      });
    });
    return expected.length;
  } finally {
    for (const t of Object.values(results)) t.dispose();
  }
}
