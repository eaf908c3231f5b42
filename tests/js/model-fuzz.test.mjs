// Model-loader fuzzing, the short fixed-seed pass (scripts/fuzz-models.mjs is the long,
// time-bounded one): every saved finding in tests/fuzz-regressions/models/ replayed as its .json
// says, every corpus model run as is, then a few thousand mutated, truncated and random models
// through InferenceSession.create and run with no finding (an exception that is not an
// OnnxWasmError, a wasm heap that does not come back, a changed input, an output that cannot be
// read or contradicts its inferred shape, a module that stops working). Last, the long fuzzer's
// crash and hang detection, on faults injected on purpose in its child process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init, memoryStats } from '../../js/index.mjs';
import {
  addToTally, feedRng, loadCorpus, makeRng, mutateCase, newTally, parseWire, replayRegression, runModelCase, serializeWire, warmUp,
} from '../support/mutate.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SEED = 20261123;
const CASES = 8000;

await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
const corpus = await loadCorpus();
await warmUp(corpus);

const regressionDir = join(repo, 'tests/fuzz-regressions/models');
describe('saved findings (tests/fuzz-regressions/models) replay as recorded', () => {
  const names = readdirSync(regressionDir).filter((f) => f.endsWith('.onnx')).sort();
  test('there are saved findings, each with its .json', () => {
    assert.ok(names.length >= 8, `${names.length} saved findings`);
    for (const n of names) assert.ok(existsSync(join(regressionDir, n.replace(/\.onnx$/, '.json'))), `${n} has no .json`);
  });
  for (const name of names) {
    test(name, async () => {
      const bytes = new Uint8Array(readFileSync(join(regressionDir, name)));
      const spec = JSON.parse(readFileSync(join(regressionDir, name.replace(/\.onnx$/, '.json')), 'utf8'));
      assert.equal(typeof spec.bug, 'string');
      assert.deepEqual(await replayRegression(bytes, spec), [], spec.bug);
      // And through the fuzzer's own random runs.
      for (let k = 0; k < 20; ++k) assert.deepEqual((await runModelCase(bytes, { rng: makeRng(k, 1) })).findings, []);
    });
  }
});

test('the wire-format tree writes every corpus model back byte for byte', () => {
  assert.ok(corpus.length > 700, `${corpus.length} corpus models`);
  for (const e of corpus) {
    const tree = parseWire(e.bytes);
    assert.ok(tree, `${e.name} does not parse`);
    assert.ok(Buffer.from(serializeWire(tree)).equals(Buffer.from(e.bytes)), e.name);
  }
});

test('every corpus model (both conformance suites, generated, hand-made) loads and runs without a finding', async () => {
  const suites = new Set(corpus.map((e) => e.name.split('/')[0]));
  for (const s of ['onnx-1.22', 'onnx-1.12', 'gen', 'hand']) assert.ok(suites.has(s), `no ${s} models in the corpus`);
  const tally = newTally();
  for (const e of corpus) {
    const r = await runModelCase(e.bytes, { inputs: e.inputs, externalData: e.externalData, rng: makeRng(1, 2) });
    addToTally(tally, r);
    assert.equal(r.created, 'ok', e.name);
    assert.deepEqual(r.findings, [], e.name);
  }
  assert.equal(tally.loaded, corpus.length);
  assert.ok(tally.ranOk > corpus.length / 2, JSON.stringify(tally));
});

test(`${CASES} mutated, truncated and random models of seed ${SEED}: no finding`, async () => {
  const heapBefore = memoryStats().heapUsed;
  const tally = newTally();
  const findings = [];
  for (let i = 0; i < CASES; ++i) {
    const c = mutateCase(corpus, SEED, i);
    const r = await runModelCase(c.bytes, { inputs: c.entry?.inputs ?? [], externalData: c.entry?.externalData, rng: feedRng(SEED, i) });
    addToTally(tally, r);
    for (const f of r.findings) findings.push(`case ${i} (${c.recipe}): ${f.kind}: ${f.detail}\n  replay: node scripts/fuzz-models.mjs --replay ${SEED}:${i}`);
  }
  assert.deepEqual(findings, []);
  assert.equal(memoryStats().heapUsed, heapBefore);
  // The mutations reach every stage: loads, runs, and refusals of many kinds at both.
  assert.equal(tally.cases, CASES);
  assert.ok(tally.loaded > CASES / 10, `only ${tally.loaded} of ${CASES} loaded`);
  assert.ok(tally.ranOk > CASES / 10, `only ${tally.ranOk} runs succeeded`);
  const refused = Object.keys(tally.refused);
  for (const c of ['ModelError', 'UnsupportedOpError', 'OpsetError', 'AttributeError', 'TypeConstraintError', 'ShapeError'])
    assert.ok(refused.includes(c), `no model refused with ${c}: ${JSON.stringify(tally.refused)}`);
  for (const c of ['InvalidArgumentError', 'IndexOutOfRangeError'])
    assert.ok(tally.runRefused[c] > 0, `no run refused with ${c}: ${JSON.stringify(tally.runRefused)}`);
});

test('a case is the same bytes on every call (findings can be replayed from seed and index)', () => {
  for (const i of [0, 1, 17, 999, 3210]) {
    const a = mutateCase(corpus, SEED, i), b = mutateCase(corpus, SEED, i);
    assert.equal(a.recipe, b.recipe);
    assert.ok(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), `case ${i}`);
  }
  assert.notEqual(mutateCase(corpus, SEED, 5).recipe + Buffer.from(mutateCase(corpus, SEED, 5).bytes), mutateCase(corpus, SEED + 1, 5).recipe + Buffer.from(mutateCase(corpus, SEED + 1, 5).bytes));
});

test('runModelCase reports an exception that is not an OnnxWasmError', async () => {
  // An externalData entry whose getter throws a RangeError, which is not one of this package's
  // errors (a path that does not exist no longer serves: it is a ModelError).
  const externalData = Object.defineProperty({}, 'table.bin', { enumerable: true, get() { throw new RangeError('a getter that throws'); } });
  const r = await runModelCase(new Uint8Array(0), { externalData });
  assert.equal(r.created, null);
  assert.equal(r.findings.length, 1);
  assert.equal(r.findings[0].kind, 'exception');
  assert.match(r.findings[0].detail, /RangeError.*a getter that throws/);
});

describe('scripts/fuzz-models.mjs', () => {
  const out = mkdtempSync(join(tmpdir(), 'onnx-wasm-fuzz-test-'));
  after(() => rmSync(out, { recursive: true, force: true }));
  const fuzz = (...args) => spawnSync(process.execPath, [join(repo, 'scripts/fuzz-models.mjs'), '--out', out, ...args], { encoding: 'utf8', timeout: 120000 });

  test('detects a crash and a hang in its child, saves both inputs, goes on, and exits 1', () => {
    const r = fuzz('--seed', '5', '--cases', '60', '--batch', '30', '--selftest', 'crash:12,hang:41', '--hang-seconds', '2', '--seconds', '100');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /finding: crash at case 12 /);
    assert.match(r.stdout, /finding: hang at case 41 /);
    assert.match(r.stdout, /models tried: +60 /);
    assert.match(r.stdout, /findings: +crash 1, hang 1|findings: +hang 1, crash 1/);
    for (const [i, kind] of [[12, 'crash'], [41, 'hang']]) {
      const saved = readFileSync(join(out, 'findings', `5-${i}-${kind}.onnx`));
      assert.ok(saved.equals(Buffer.from(mutateCase(corpus, 5, i).bytes)), `${kind} input saved`);
      assert.equal(JSON.parse(readFileSync(join(out, 'findings', `5-${i}-${kind}.json`), 'utf8')).kind, kind);
    }
  });

  test('a clean run prints its counts and exits 0', () => {
    const r = fuzz('--seed', '6', '--cases', '300', '--seconds', '100');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /models tried: +300 /);
    assert.match(r.stdout, /loaded: +[1-9]/);
    assert.match(r.stdout, /refused at load: +[1-9]\d*: ModelError/);
    assert.match(r.stdout, /runs executed: +[1-9]/);
    assert.match(r.stdout, /findings: +none/);
  });
});
