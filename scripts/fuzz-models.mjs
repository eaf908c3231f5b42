#!/usr/bin/env node
// Model-loader fuzzer: mutated and truncated versions of every model of the conformance suites
// (and the generated and hand-made models of tests/support/mutate.mjs), and random bytes, through
// InferenceSession.create and run, for a given time.
//
//   node scripts/fuzz-models.mjs [--seconds 60] [--seed N] [--cases N] [--batch 20000] [--jobs 1]
//        [--hang-seconds 30] [--out test-artifacts/fuzz-models] [--init '{"threads":false}']
//   node scripts/fuzz-models.mjs --replay SEED:INDEX      (one case, in this process, verbose)
//
// Cases run in batches, each in a child process. The child announces every case before running
// it, so that a crash (the child dies) or a hang (no case finishes within --hang-seconds; the
// child is killed) names the case, whose bytes the parent makes again and saves. Other
// findings (an exception that is not an OnnxWasmError, a wasm heap that does not return to where
// it was, a changed input, an output that cannot be read or contradicts its inferred shape, a
// module that stops working) come back from the child. Every finding is saved under
// <out>/findings/ as SEED-INDEX-KIND.onnx with a .json describing it. Case INDEX of SEED is the
// same bytes on every run (a fixed corpus, sorted, and a PRNG seeded from seed and index).
// Exit status: 0 when nothing was found, 1 otherwise.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { init, memoryStats, runtime, threadsReady } from '../js/index.mjs';
import {
  addToTally, feedRng, loadCorpus, mergeTally, mutateCase, newTally, runModelCase, warmUp,
} from '../tests/support/mutate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

function parseArgs(argv) {
  const o = {
    seconds: 60, seed: null, batch: 20000, jobs: 1, hangSeconds: 30, out: join(repo, 'test-artifacts/fuzz-models'),
    cases: Infinity, init: '{}', child: false, start: 0, count: 0, until: 0, corpus: null, replay: null, maxSaved: 20, selftest: null,
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i], v = () => argv[++i];
    switch (a) {
      case '--seconds': o.seconds = Number(v()); break;
      case '--seed': o.seed = Number(v()) >>> 0; break;
      case '--batch': o.batch = Number(v()); break;
      case '--cases': o.cases = Number(v()); break;
      case '--jobs': o.jobs = Number(v()); break;
      case '--hang-seconds': o.hangSeconds = Number(v()); break;
      case '--out': o.out = resolve(v()); break;
      case '--init': o.init = v(); break;
      case '--max-saved': o.maxSaved = Number(v()); break;
      case '--replay': o.replay = v(); break;
      // Internal: a child running one batch.
      case '--child': o.child = true; break;
      case '--start': o.start = Number(v()); break;
      case '--count': o.count = Number(v()); break;
      case '--until': o.until = Number(v()); break;
      case '--corpus': o.corpus = v(); break;
      case '--selftest': o.selftest = v(); break;   // KIND:INDEX[,KIND:INDEX]: crash, hang or exit at that case
      case '--help': case '-h':
        console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 20).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
        process.exit(0);
        break;
      default: throw new Error(`unknown argument ${a} (see --help)`);
    }
  }
  return o;
}

async function initRuntime(options) {
  await init(JSON.parse(options));
  // The threads build starts its workers in the background; let them settle before measuring heaps.
  await threadsReady();
}

// ---------------------------------------------------------------------------------------------
// Child: runs cases start .. start+count-1 (or until the deadline), reporting on stdout:
//   C <index>          before each case
//   F <json>           a finding
//   T <json>           the tally, at the end
async function child(o) {
  await initRuntime(o.init);
  const corpus = deserialize(readFileSync(o.corpus));
  await warmUp(corpus);
  const tally = newTally();
  const say = (line) => process.stdout.write(`${line}\n`);   // pipes are synchronous on POSIX
  for (let i = o.start; i < o.start + o.count && Date.now() < o.until; ++i) {
    const c = mutateCase(corpus, o.seed, i);
    say(`C ${i}`);
    if (o.selftest) selftest(o.selftest, i);
    const r = await runModelCase(c.bytes, { inputs: c.entry?.inputs ?? [], externalData: c.entry?.externalData, rng: feedRng(o.seed, i) });
    addToTally(tally, r);
    for (const f of r.findings) say(`F ${JSON.stringify({ index: i, recipe: c.recipe, ...f, bytes: Buffer.from(c.bytes).toString('base64') })}`);
  }
  const { heapUsed, memory } = memoryStats();
  say(`T ${JSON.stringify({ ...tally, heapUsed, memory })}`);
}

// Faults on purpose, to check that the parent detects and saves each kind (tests/js/model-fuzz.test.mjs).
function selftest(spec, i) {
  for (const one of spec.split(',')) {
    const [kind, at] = one.split(':');
    if (Number(at) !== i) continue;
    if (kind === 'crash') process.kill(process.pid, 'SIGSEGV');
    if (kind === 'hang') for (;;);
    if (kind === 'exit') process.exit(3);
  }
}

// ---------------------------------------------------------------------------------------------
// Parent.

function saveFinding(o, saved, f) {
  const kindCount = (saved[f.kind] = (saved[f.kind] ?? 0) + 1);
  if (kindCount > o.maxSaved) return null;
  const dir = join(o.out, 'findings');
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${o.seed}-${f.index}-${f.kind}`);
  writeFileSync(`${base}.onnx`, Buffer.from(f.bytes, 'base64'));
  const { bytes, ...meta } = f;
  writeFileSync(`${base}.json`, `${JSON.stringify({ seed: o.seed, ...meta, replay: `node scripts/fuzz-models.mjs --replay ${o.seed}:${f.index}` }, null, 2)}\n`);
  return `${base}.onnx`;
}

// Runs one batch in a child; resolves to { tally, findings, last, heapUsed, memory } where a
// crash or hang is itself a finding and `last` is the last case started.
function runBatch(o, start, count, until, corpus, corpusFile) {
  return new Promise((done) => {
    const args = [fileURLToPath(import.meta.url), '--child', '--seed', String(o.seed), '--start', String(start), '--count', String(count),
      '--until', String(until), '--corpus', corpusFile, '--init', o.init, ...(o.selftest ? ['--selftest', o.selftest] : [])];
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const findings = [];
    let last = start - 1, tally = null, buf = '', stderr = '', hung = false, finished = false;
    let timer;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { hung = true; p.kill('SIGKILL'); }, o.hangSeconds * 1000);
    };
    watch();
    p.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('C ')) { last = Number(line.slice(2)); watch(); } else if (line.startsWith('F ')) findings.push(JSON.parse(line.slice(2)));
        else if (line.startsWith('T ')) tally = JSON.parse(line.slice(2));
      }
    });
    p.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      if (finished) return;
      finished = true;
      const ok = code === 0 && tally && !hung;
      if (!ok) {
        const kind = hung ? 'hang' : 'crash';
        const c = last >= start ? mutateCase(corpus, o.seed, last) : { bytes: new Uint8Array(0), recipe: '(before the first case: start-up)' };
        findings.push({
          index: last, recipe: c.recipe, kind, bytes: Buffer.from(c.bytes).toString('base64'),
          detail: hung ? `no case finished within ${o.hangSeconds} s; killed` : `child exited with ${signal ?? `code ${code}`}\n${stderr}`,
        });
      }
      done({ tally, findings, last, crashed: !ok });
    });
  });
}

async function parent(o) {
  o.seed ??= (Date.now() ^ (process.pid << 16)) >>> 0;
  const t0 = Date.now();
  const deadline = t0 + o.seconds * 1000;
  mkdirSync(o.out, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'onnx-wasm-fuzz-'));
  const corpusFile = join(work, 'corpus.bin');
  await initRuntime(o.init);
  const corpus = await loadCorpus();
  writeFileSync(corpusFile, serialize(corpus));
  console.log(`fuzz-models: seed ${o.seed}, ${o.seconds} s${o.cases < Infinity ? ` or ${o.cases} cases` : ''}, ${corpus.length} corpus models (${corpus.filter((e) => e.name.startsWith('onnx-1.22')).length} ONNX 1.22, ` +
    `${corpus.filter((e) => e.name.startsWith('onnx-1.12')).length} ONNX 1.12, ${corpus.filter((e) => e.name.startsWith('gen/')).length} generated, ` +
    `${corpus.filter((e) => e.name.startsWith('hand/')).length} hand-made), batches of ${o.batch} in ${o.jobs} child process(es), build ${runtime().module}`);

  const total = newTally();
  const saved = {};
  const savedFiles = [];
  let next = 0, batches = 0, restarts = 0, maxMemory = 0, maxHeap = 0;
  let lastReport = Date.now();
  const pending = [];   // ranges [start, count] still to run (the rest of a batch after a crash)
  const worker = async () => {
    while (Date.now() < deadline) {
      if (!pending.length && next >= o.cases) break;
      const [start, count] = pending.length ? pending.shift() : [next, Math.min(o.batch, o.cases - next)];
      if (start === next) next += count;
      batches++;
      const r = await runBatch(o, start, count, deadline, corpus, corpusFile);
      if (r.tally) {
        mergeTally(total, r.tally);
        maxMemory = Math.max(maxMemory, r.tally.memory);
        maxHeap = Math.max(maxHeap, r.tally.heapUsed);
      } else {
        // Crashed or hung: count the cases it started, the failing one included, and its findings.
        total.cases += r.last - start + 1;
        for (const f of r.findings) total.findings[f.kind] = (total.findings[f.kind] ?? 0) + 1;
      }
      if (r.crashed) {
        restarts++;
        const end = start + count;
        if (r.last + 1 < end) pending.push([r.last + 1, end - r.last - 1]);
      }
      for (const f of r.findings) {
        const file = saveFinding(o, saved, f);
        if (file) savedFiles.push(file);
        if ((saved[f.kind] ?? 0) <= 3) console.log(`  finding: ${f.kind} at case ${f.index} (${f.recipe}): ${f.detail.split('\n')[0]}`);
      }
      if (Date.now() - lastReport > 60000) {
        lastReport = Date.now();
        console.log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${total.cases} models tried, ${total.loaded} loaded, ${total.runs} runs, findings ${JSON.stringify(total.findings)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.jobs) }, worker));
  rmSync(work, { recursive: true, force: true });

  const seconds = (Date.now() - t0) / 1000;
  const refusedTotal = Object.values(total.refused).reduce((a, b) => a + b, 0);
  const sorted = (obj) => Object.entries(obj).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  console.log(`\nseed ${o.seed}: ${seconds.toFixed(1)} s, ${batches} batches, ${restarts} child restarts`);
  console.log(`models tried:     ${total.cases} (${(total.cases / seconds).toFixed(0)}/s)`);
  console.log(`loaded:           ${total.loaded}`);
  console.log(`refused at load:  ${refusedTotal}: ${sorted(total.refused)}`);
  console.log(`runs executed:    ${total.runs} (ran ${total.ranOk}; refused ${total.runs - total.ranOk}: ${sorted(total.runRefused)}); ${total.skippedRuns} runs skipped (declared inputs too large to feed)`);
  console.log(`wasm heap:        at most ${maxHeap} bytes in use at the end of a batch; wasm memory at most ${maxMemory} bytes`);
  const nFindings = Object.values(total.findings).reduce((a, b) => a + b, 0);
  console.log(`findings:         ${nFindings ? sorted(total.findings) : 'none'}`);
  for (const f of savedFiles) console.log(`  saved ${f}`);
  return nFindings ? 1 : 0;
}

async function replay(o) {
  const [seed, index] = o.replay.split(':').map(Number);
  await initRuntime(o.init);
  const corpus = await loadCorpus();
  await warmUp(corpus);
  const c = mutateCase(corpus, seed >>> 0, index);
  console.log(`case ${index} of seed ${seed}: ${c.recipe} (${c.bytes.length} bytes)`);
  const r = await runModelCase(c.bytes, { inputs: c.entry?.inputs ?? [], externalData: c.entry?.externalData, rng: feedRng(seed >>> 0, index), verbose: true });
  console.log(JSON.stringify(r, null, 2));
  return r.findings.length ? 1 : 0;
}

const o = parseArgs(process.argv.slice(2));
if (o.child) await child(o);
else process.exitCode = o.replay ? await replay(o) : await parent(o);
