// The `onnx-wasm` command (bin/onnx-wasm.mjs), run as a process: inspect and run on every model
// of both conformance suites (generated inputs, and the suites' own inputs with the printed output
// shapes checked), .npy inputs, and its errors.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { SKIPPED, listTestDirs, suiteRoots } from '../support/onnx-test-dir.mjs';
import { tensorFromProtoBytes } from '../../js/model/tensor-proto.mjs';
import { init, opVersions } from '../../js/index.mjs';
import { toNpy } from '../../bin/npy.mjs';

const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/onnx-wasm.mjs');
const exec = promisify(execFile);
async function cli(...args) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args, ...(args[0] === 'run' || args[0] === 'inspect' ? ['--threads=false'] : [])]);
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
      const first = tensor.data.length ? String(tensor.data[0]) : null;
      const line = data.stdout.split('\n').find((l) => l.startsWith('output ') && l.includes(`${tensor.type} [${tensor.dims.join(', ')}]`));
      assert.ok(line, `no output line with ${tensor.type} [${tensor.dims}] in:\n${data.stdout}`);
      if (first !== null && Number.isInteger(Number(first))) assert.ok(line.includes(`[${first}`), `${line} should start with ${first}`);
      tensor.dispose();
    }
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

test('errors: exit code 1 with the error class and message, 2 for usage', async () => {
  const missing = await cli('inspect', join(tmp, 'nope.onnx'));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^onnx-wasm: error: ENOENT/m);
  writeFileSync(join(tmp, 'junk.onnx'), Uint8Array.from({ length: 64 }, (_, i) => (i * 97) & 255));
  const junk = await cli('inspect', join(tmp, 'junk.onnx'));
  assert.equal(junk.code, 1);
  assert.match(junk.stderr, /^onnx-wasm: ModelError \(ERR_MODEL\): /m);
  const model = join(dirs.find((d) => d.name === 'test_gather_0').dir, 'model.onnx');
  writeFileSync(join(tmp, 'bad.npy'), toNpy({ type: 'float32', data: new Float32Array(6), dims: [2, 3] }));
  const rank = await cli('run', model, '--input', `data=${join(tmp, 'bad.npy')}`);
  assert.equal(rank.code, 1);
  assert.match(rank.stderr, /InvalidArgumentError \(ERR_INVALID_ARGUMENT\): input 'data' must have rank 4/);
  assert.equal((await cli('frobnicate', model)).code, 2);
  assert.equal((await cli('run', model, '--bogus')).code, 2);
  const help = await cli('--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /onnx-wasm inspect <model.onnx>/);
});
