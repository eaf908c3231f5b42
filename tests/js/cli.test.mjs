// The `onnx-wasm` command (bin/onnx-wasm.mjs), run as a process: inspect and run on every model
// of both conformance suites (generated inputs, and the suites' own inputs with the printed output
// shapes checked), .npy inputs, and its errors.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { SKIPPED, listTestDirs, suiteRoots } from '../support/onnx-test-dir.mjs';
import { tensorFromProtoBytes } from '../../js/model/tensor-proto.mjs';
import { init, opVersions, Tensor } from '../../js/index.mjs';
import { npyOf, parseNpy, toNpy } from '../../bin/npy.mjs';
import { valueText } from '../../bin/compare.mjs';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema, TensorProtoSchema } from 'onnx-buf';
import { gatherModel } from '../support/external-models.mjs';

const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/onnx-wasm.mjs');
const exec = promisify(execFile);
async function cli(...args) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args, ...((args[0] === 'run' || args[0] === 'inspect') && !args.some((a) => a.startsWith('--threads')) ? ['--threads=false'] : [])]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

await init({ threads: false });
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// The first node printed is Constant or one of the default domain's ops (the registry's).
const FIRST_NODE = new RegExp(`^  0 (${[...new Set(opVersions().filter((v) => v.domain === '').map((v) => v.op)), 'Constant'].join('|')})`, 'm');
const dirs = Object.entries(suiteRoots()).filter(([, r]) => r).flatMap(([suite, root]) => listTestDirs(root).map((d) => ({ suite, ...d })));

test('both suites are found', () => assert.ok(dirs.length >= 40, `found ${dirs.length} models`));

for (const { suite, group, name, dir } of dirs) {
  test(`${suite}: ${group}/${name}: inspect, run with generated inputs, run with its test data`, { skip: SKIPPED[name] ?? false }, async () => {
    const model = join(dir, 'model.onnx');
    const [ins, gen, data] = await Promise.all([
      cli('inspect', model), cli('run', model), cli('run', model, '--data', join(dir, 'test_data_set_0')),
    ]);
    assert.equal(ins.code, 0, ins.stderr);
    assert.match(ins.stdout, /^ir_version: \d+$/m);
    assert.match(ins.stdout, /^opset imports: ai\.onnx \d+/m);
    assert.match(ins.stdout, /^outputs \(inferred\):\n  \S+: \w+ \[/m);
    assert.match(ins.stdout, FIRST_NODE);
    assert.equal(gen.code, 0, gen.stderr);
    assert.match(gen.stdout, /\(generated\)/);
    assert.match(gen.stdout, /^output \S+: \w+ \[/m);
    assert.match(gen.stdout, /^run time: first [\d.]+ µs/m);
    assert.equal(data.code, 0, data.stderr);
    // The printed output shapes and first values are the expected ones.
    const expected = await Promise.all(readdirSync(join(dir, 'test_data_set_0')).filter((f) => f.startsWith('output_'))
      .map((f) => tensorFromProtoBytes(readFileSync(join(dir, 'test_data_set_0', f)))));
    for (const { tensor } of expected) {
      const first = tensor.data.length ? valueText(tensor, 0) : null;
      const line = data.stdout.split('\n').find((l) => l.startsWith('output ') && l.includes(`${tensor.type} [${tensor.dims.join(', ')}]`));
      assert.ok(line, `no output line with ${tensor.type} [${tensor.dims}] in:\n${data.stdout}`);
      if (first !== null && Number.isInteger(Number(first))) assert.ok(line.includes(`[${first}`), `${line} should start with ${first}`);
      tensor.dispose();
    }
    // Each output_K.pb is compared, and matches.
    for (const f of readdirSync(join(dir, 'test_data_set_0')).filter((f) => /^output_\d+\.pb$/.test(f))) assert.match(data.stdout, new RegExp(`^output '.+' matches ${f.replace('.', '\\.')}$`, 'm'));
  });
}

test('run: .npy inputs, --dim for symbols, --repeat', async () => {
  const model = join(dirs.find((d) => d.name === 'test_gather_0').dir, 'model.onnx');
  const data = Float32Array.from({ length: 120 }, (_, i) => i);
  writeFileSync(join(tmp, 'data.npy'), toNpy({ type: 'float32', data, dims: [5, 4, 3, 2] }));
  writeFileSync(join(tmp, 'idx.npy'), toNpy({ type: 'int64', data: BigInt64Array.from([4n, 0n, -1n]), dims: [3] }));
  const r = await cli('run', model, '--input', `data=${join(tmp, 'data.npy')}`, '--input', `indices=${join(tmp, 'idx.npy')}`, '--repeat', '5');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^output y: float32 \[3, 4, 3, 2\] \[96, 97, 98, 99, 100, 101, 102, 103, \.\.\. \(72 entries\)\]$/m);
  assert.match(r.stdout, /median of 5/);
});

test('run prints values as numbers: float16 outputs decoded, not their bits', async () => {
  // A Gather of a float16 table [3, 2] kept in table.bin: 0.5, 1.5, -2, 3.25, 65504, -0 (the
  // generated indices are 0 and 1).
  const dir = join(tmp, 'half');
  mkdirSync(dir);
  writeFileSync(join(dir, 'model.onnx'), gatherModel({ type: 'float16', dims: [3, 2], indexDims: [2] }));
  writeFileSync(join(dir, 'table.bin'), new Uint8Array(Uint16Array.from([0x3800, 0x3e00, 0xc000, 0x4280, 0x7bff, 0x8000]).buffer));
  const r = await cli('run', join(dir, 'model.onnx'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^output \S+: float16 \[2, 2\] \[0\.5, 1\.5, -2, 3\.25\]$/m);
});

test('valueText: halves, bfloat16s and 4-bit and 2-bit codes as numbers (signed ones signed)', () => {
  const texts = (t) => { const n = t.dims.reduce((a, b) => a * b, 1); const v = Array.from({ length: n }, (_, i) => valueText(t, i)); t.dispose(); return v; };
  assert.deepEqual(texts(new Tensor('float16', Uint16Array.from([0x3e00, 0xc000, 0x7c00, 0x0001, 0x2e66]), [5])), ['1.5', '-2', 'Infinity', '5.96046e-8', '0.0999756']);
  assert.deepEqual(texts(new Tensor('bfloat16', Uint16Array.from([0x3fc0, 0xbf80]), [2])), ['1.5', '-1']);
  assert.deepEqual(texts(new Tensor('int4', Uint8Array.from([0x9f, 0x07]), [3])), ['-1', '-7', '7']);
  assert.deepEqual(texts(new Tensor('uint4', Uint8Array.from([0x9f]), [2])), ['15', '9']);
  assert.deepEqual(texts(new Tensor('int2', Uint8Array.from([0b11100100]), [4])), ['0', '1', '-2', '-1']);
  assert.deepEqual(texts(new Tensor('float32', Float32Array.from([0.1, 2]), [2])), ['0.1', '2']);
});

test('errors: exit code 1 with the error class and message, 2 for usage', async () => {
  const missing = await cli('inspect', join(tmp, 'nope.onnx'));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^onnx-wasm: error: cannot read the model '.*nope\.onnx': ENOENT/m);
  writeFileSync(join(tmp, 'junk.onnx'), Uint8Array.from({ length: 64 }, (_, i) => (i * 97) & 255));
  const junk = await cli('inspect', join(tmp, 'junk.onnx'));
  assert.equal(junk.code, 1);
  assert.match(junk.stderr, /^onnx-wasm: error: ModelError \(ERR_MODEL\): /m);
  const model = join(dirs.find((d) => d.name === 'test_gather_0').dir, 'model.onnx');
  writeFileSync(join(tmp, 'bad.npy'), toNpy({ type: 'float32', data: new Float32Array(6), dims: [2, 3] }));
  const rank = await cli('run', model, '--input', `data=${join(tmp, 'bad.npy')}`);
  assert.equal(rank.code, 1);
  assert.match(rank.stderr, /^onnx-wasm: error: InvalidArgumentError \(ERR_INVALID_ARGUMENT\): input 'data' must have rank 4/m);
  assert.equal((await cli('frobnicate', model)).code, 2);
  assert.equal((await cli('run', model, '--bogus')).code, 2);
  const help = await cli('--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /onnx-wasm inspect <model.onnx>/);
});

// Models built here: `ids` int64 [batch, seq] -> Gather from an inline float32 [5, 4] table ->
// Reshape by an inline int64 shape [0, -1] -> `flat` (the getting-started model's graph).
const dim = (d) => ({ value: typeof d === 'string' ? { case: 'dimParam', value: d } : { case: 'dimValue', value: BigInt(d) } });
const tensorType = (elemType, dims) => ({ value: { case: 'tensorType', value: { elemType, shape: { dim: dims.map(dim) } } } });
const modelBytes = (graph, opset = 21) => toBinary(ModelProtoSchema, create(ModelProtoSchema, { irVersion: 8n, opsetImport: [{ domain: '', version: BigInt(opset) }], graph }));
const embed = join(tmp, 'embed.onnx');
writeFileSync(embed, modelBytes({
  name: 'embed',
  node: [
    { opType: 'Gather', name: 'lookup', input: ['table', 'ids'], output: ['vectors'], attribute: [{ name: 'axis', type: 2, i: 0n }] },
    { opType: 'Reshape', name: 'flatten', input: ['vectors', 'shape'], output: ['flat'] },
  ],
  initializer: [
    { name: 'table', dataType: 1, dims: [5n, 4n], rawData: new Uint8Array(Float32Array.from({ length: 20 }, (_, i) => i / 2).buffer) },
    { name: 'shape', dataType: 7, dims: [2n], int64Data: [0n, -1n] },
  ],
  input: [{ name: 'ids', type: tensorType(7, ['batch', 'seq']) }],
  output: [{ name: 'flat', type: tensorType(1, []) }],
}));

test('flags: every value checked, one error style with the usage line, exit 2', async () => {
  const usage = /^usage: onnx-wasm run <model\.onnx>/m;
  const cases = [
    [['run', embed, '--repeat', 'abc'], "--repeat expects a positive integer, got 'abc'", usage],
    [['run', embed, '--repeat', '0'], "--repeat expects a positive integer, got '0'", usage],
    [['run', embed, '--repeat'], '--repeat expects a value', usage],
    [['run', embed, '--dim', 'batch'], "--dim expects symbol=N, got 'batch'", usage],
    [['run', embed, '--dim', 'batch=-1'], "--dim expects symbol=N with N an integer >= 0, got 'batch=-1'", usage],
    [['run', embed, '--threads=maybe'], "--threads expects true or false, got 'maybe'", usage],
    [['run', embed, '--threads=false', '--threads=true'], '--threads is given twice', usage],
    [['run', embed, '--input', 'ids'], "--input expects name=file.npy, got 'ids'", usage],
    [['run', embed, '--input', `nope=${join(tmp, 'bad.npy')}`], "--input: the model has no input 'nope'; its inputs: ids", usage],
    [['run', embed, '--input', `ids=${join(tmp, 'absent.npy')}`], `--input ids=${join(tmp, 'absent.npy')}: cannot read`, usage],
    [['run', embed, '--data', join(tmp, 'absent')], `--data: cannot read the folder '${join(tmp, 'absent')}'`, usage],
    [['run', embed, '--bogus'], "unknown option '--bogus' for run; it takes --input, --data, --dim, --repeat, --output, --threads", usage],
    [['run', embed, 'extra.onnx'], "unexpected argument 'extra.onnx'", usage],
    [['run'], 'run needs a model file', usage],
    [['inspect', embed, '--repeat', '3'], "unknown option '--repeat' for inspect; it takes --threads", /^usage: onnx-wasm inspect <model\.onnx>/m],
  ];
  for (const [args, message, usageLine] of cases) {
    const r = await cli(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.startsWith(`onnx-wasm: error: ${message}`), `${args.join(' ')}:\n${r.stderr}`);
    assert.match(r.stderr, usageLine, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
});

test('flags: --dim naming a symbol the model does not have lists its symbols', async () => {
  const r = await cli('run', embed, '--dim', 'bacth=2');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^onnx-wasm: error: --dim bacth=2: the model has no symbol 'bacth'; its symbols: batch, seq$/m);
  const ok = await cli('run', embed, '--dim', 'batch=3', '--dim', 'seq=1');
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^input ids: int64 \[3, 1\] \(generated\)/m);
  assert.match(ok.stdout, /^output flat: float32 \[3, 4\]/m);
});

test('commands: an unknown one is named; --version prints the package version', async () => {
  const r = await cli('frobnicate', embed);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^onnx-wasm: error: unknown command 'frobnicate'; the commands are inspect and run$/m);
  assert.match(r.stderr, /^usage:/m);
  const none = await cli();
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^onnx-wasm: error: no command given; the commands are inspect and run$/m);
  const version = await cli('--version');
  assert.equal(version.code, 0, version.stderr);
  const pkg = JSON.parse(readFileSync(resolve(dirname(bin), '../package.json'), 'utf8'));
  assert.equal(version.stdout, `onnx-wasm ${pkg.version}\n`);
});

test('inspect: initializers (type, dims, bytes, where), the values of small ones, every value inferred', async () => {
  const r = await cli('inspect', embed);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^initializers \(2\):\n  table: float32 \[5, 4\], 80 bytes, inline, values \[0, 0\.5, 1, 1\.5, 2, 2\.5, 3, 3\.5, \.\.\. \(20 entries\)\]\n  shape: int64 \[2\], 16 bytes, inline, values \[0, -1\]$/m);
  assert.match(r.stdout, /^inputs:\n  ids: int64 \[batch, seq\]$/m);
  assert.match(r.stdout, /^outputs \(inferred\):\n  flat: float32 \[batch, \?\]$/m);
  assert.match(r.stdout, /^  0 Gather 'lookup'\(table, ids\) \{"axis":0\} -> vectors: float32 \[batch, seq, 4\]$/m);
  assert.match(r.stdout, /^  1 Reshape 'flatten'\(vectors, shape\) -> flat: float32 \[batch, \?\]$/m);
});

test('inspect: a tensor attribute by its type, dims and values (as a Constant holds it), and inferred from', async () => {
  const model = join(tmp, 'constants.onnx');
  const scale = new Uint8Array(new Float32Array([2.5]).buffer);
  writeFileSync(model, modelBytes({
    name: 'g',
    node: [
      { opType: 'Constant', name: 'minus-one', output: ['m'], attribute: [{ name: 'value', type: 4, t: { dataType: 7, dims: [1n], int64Data: [-1n] } }] },
      { opType: 'Constant', name: 'scale', output: ['k'], attribute: [{ name: 'value', type: 4, t: { name: 'sqrt_d', dataType: 1, dims: [], rawData: scale } }] },
      { opType: 'Constant', name: 'bad', output: ['b'], attribute: [{ name: 'value', type: 4, t: { dataType: 1, dims: [2n], rawData: scale } }] },
      { opType: 'Reshape', name: 'flat', input: ['x', 'm'], output: ['y'] },
      { opType: 'Mul', name: 'scaled', input: ['y', 'k'], output: ['z'] },
    ],
    input: [{ name: 'x', type: tensorType(1, [2, 3]) }],
    output: [{ name: 'z', type: tensorType(1, [6]) }, { name: 'b', type: tensorType(1, [2]) }],
  }));
  const r = await cli('inspect', model);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^  \d Constant 'minus-one'\(\) \{"value":"<tensor int64 \[1\], 8 bytes, inline, values \[-1\]>"\} -> m: int64 \[1\]$/m);
  assert.match(r.stdout, /^  \d Constant 'scale'\(\) \{"value":"<tensor 'sqrt_d': float32 \[\], 4 bytes, inline, values \[2\.5\]>"\} -> k: float32 \[\]$/m);
  // (a tensor whose bytes do not match its dims: said, and the Constant cannot run)
  assert.match(r.stdout, /^  \d Constant 'bad'\(\) \{"value":"<tensor float32 \[2\], 8 bytes, inline, invalid: .+>"\} -> b: \? {2}\[cannot run: its tensor is invalid\]$/m);
  // (the shape's values reach inference: Reshape's output is known)
  assert.match(r.stdout, /^  \d Reshape 'flat'\(x, m\) -> y: float32 \[6\]$/m);
  assert.match(r.stdout, /^outputs \(inferred\):\n  z: float32 \[6\]\n/m);
});

test('inspect reads no table bytes: a model whose external data file is missing inspects', async () => {
  const model = join(tmp, 'external.onnx');
  writeFileSync(model, gatherModel({ dims: [300, 40], location: 'absent-table.bin', offset: 64 }));
  const r = await cli('inspect', model);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^  table: float32 \[300, 40\], 48000 bytes, external 'absent-table\.bin' offset 64 length 48000 \(the file is missing\)$/m);
  assert.match(r.stdout, /^  0 Gather 'lookup'\(table, indices\) \{"axis":0\} -> out: float32 \[n, 40\]$/m);
  // run still needs the table, and says so.
  const run = await cli('run', model);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /absent-table\.bin/);
});

test('inspect: a node onnx-wasm cannot run is marked, and the rest still shows', async () => {
  const model = join(tmp, 'softmax.onnx');
  writeFileSync(model, modelBytes({
    name: 'g',
    node: [
      { opType: 'Softmax', name: 'probs', input: ['x'], output: ['y'] },
      { opType: 'Flatten', name: 'flat', input: ['y'], output: ['z'], attribute: [{ name: 'axis', type: 2, i: 1n }] },
      { opType: 'Shape', name: 'shape', input: ['x'], output: ['s'] },
    ],
    input: [{ name: 'x', type: tensorType(1, ['batch', 3]) }],
    output: [{ name: 'z', type: tensorType(1, ['batch', 3]) }, { name: 's', type: tensorType(7, [2]) }],
  }));
  const r = await cli('inspect', model);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^  \d Softmax 'probs'\(x\) -> y: \? {2}\[cannot run: onnx-wasm does not run Softmax\]$/m);
  assert.match(r.stdout, /^  \d Flatten 'flat'\(y\) \{"axis":1\} -> z: \? {2}\[not inferred: input 'y' is unknown\]$/m);
  assert.match(r.stdout, /^  \d Shape 'shape'\(x\) -> s: int64 \[2\]$/m);
  assert.match(r.stdout, /^outputs \(inferred\):\n  z: float32 \[batch, 3\] \(declared\)\n  s: int64 \[2\]$/m);
  assert.match(r.stdout, /^1 node of 3 cannot run; run would fail\.$/m);
});

test('run --data compares the outputs with output_K.pb and reports the first difference', async () => {
  const src = dirs.find((d) => d.name === 'test_gather_0').dir;
  const set = join(tmp, 'set');
  rmSync(set, { recursive: true, force: true });
  mkdirSync(set);
  for (const f of readdirSync(join(src, 'test_data_set_0'))) copyFileSync(join(src, 'test_data_set_0', f), join(set, f));
  const model = join(src, 'model.onnx');
  const good = await cli('run', model, '--data', set);
  assert.equal(good.code, 0, good.stderr);
  assert.match(good.stdout, /^output 'y' matches output_0\.pb$/m);
  // One element of the expected output changed: element 14 of y [3, 4, 3, 2] is at [0, 2, 1, 0].
  const proto = fromBinary(TensorProtoSchema, readFileSync(join(set, 'output_0.pb')));
  const values = new Float32Array(Uint8Array.from(proto.rawData).buffer);
  const was = values[14];
  values[14] = 1234.5;
  proto.rawData = new Uint8Array(values.buffer);
  writeFileSync(join(set, 'output_0.pb'), toBinary(TensorProtoSchema, proto));
  const bad = await cli('run', model, '--data', set);
  assert.equal(bad.code, 1, bad.stdout);
  const m = /^onnx-wasm: error: output 'y' differs from output_0\.pb at index \[0, 2, 1, 0\] \(element 14 of 72\): got (\S+), expected 1234\.5$/m.exec(bad.stderr);
  assert.ok(m, bad.stderr);
  assert.equal(Math.fround(Number(m[1])), was, `${m[1]} is the float32 ${was}`);
  // Inputs not all from the folder: its outputs are not this run's, and are not compared.
  writeFileSync(join(tmp, 'idx0.npy'), toNpy({ type: 'int64', data: BigInt64Array.from([0n, 0n, 0n]), dims: [3] }));
  const other = await cli('run', model, '--data', set, '--input', `indices=${join(tmp, 'idx0.npy')}`);
  assert.equal(other.code, 0, other.stderr);
  assert.match(other.stdout, /^outputs not compared with output_0\.pb: 'indices' not from the folder$/m);
});

test('run --output writes each output as a .npy file', async () => {
  const out = join(tmp, 'out');
  const r = await cli('run', embed, '--dim', 'batch=2', '--dim', 'seq=3', '--output', out);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^wrote ${join(out, 'flat.npy').replace(/[.]/g, '\\.')}$`, 'm'));
  const { type, data, dims } = parseNpy(readFileSync(join(out, 'flat.npy')));
  assert.equal(type, 'float32');
  assert.deepEqual(dims, [2, 12]);
  // The generated ids are [0, 7 % 5, 14 % 5, ...] = [0, 2, 4, 1, 3, 0]; table row r is r*2 .. r*2 + 1.5.
  const ids = [0, 2, 4, 1, 3, 0];
  assert.deepEqual(Array.from(data), ids.flatMap((r) => [0, 1, 2, 3].map((c) => (r * 4 + c) / 2)));
});

test('npyOf: strings as <U, the types NumPy lacks as what holds them, each said', () => {
  const s = npyOf({ type: 'string', data: ['ab', 'é€😀', ''], dims: [3] });
  assert.equal(s.note, null);
  assert.deepEqual(parseNpy(s.bytes), { type: 'string', data: ['ab', 'é€😀', ''], dims: [3] });
  // int4 packs two per byte, the first in the low nibble: 0xf1 is [1, -1], 0x87 is [7, -8].
  const i4 = npyOf({ type: 'int4', data: Uint8Array.from([0xf1, 0x87]), dims: [2, 2] });
  assert.equal(i4.note, 'int4 values as int8');
  assert.deepEqual(parseNpy(i4.bytes), { type: 'int8', data: Int8Array.from([1, -1, 7, -8]), dims: [2, 2] });
  const u2 = npyOf({ type: 'uint2', data: Uint8Array.from([0b11100100]), dims: [4] });
  assert.deepEqual([u2.note, Array.from(parseNpy(u2.bytes).data)], ['uint2 values as uint8', [0, 1, 2, 3]]);
  const bf = npyOf({ type: 'bfloat16', data: Uint16Array.from([0x3f80, 0xc000]), dims: [2] });
  assert.deepEqual([bf.note, parseNpy(bf.bytes)], ['bfloat16 bits as uint16', { type: 'uint16', data: Uint16Array.from([0x3f80, 0xc000]), dims: [2] }]);
  const f8 = npyOf({ type: 'float8e4m3fn', data: Uint8Array.from([0x38]), dims: [] });
  assert.deepEqual([f8.note, parseNpy(f8.bytes)], ['float8e4m3fn bits as uint8', { type: 'uint8', data: Uint8Array.from([0x38]), dims: [] }]);
  const f16 = npyOf({ type: 'float16', data: Uint16Array.from([0x3c00]), dims: [1] });
  assert.deepEqual([f16.note, parseNpy(f16.bytes)], [null, { type: 'float16', data: Uint16Array.from([0x3c00]), dims: [1] }]);
});
