// `npm run bench -- --embeddings` (issue 30): a Gemma-sized quantized embedding table through
// com.microsoft GatherBlockQuantized-1 in onnx-wasm, onnxruntime-web (plain wasm build, 1 thread)
// and onnxruntime-node, side by side in one process.
// The table: 262,144 x 2,560 4-bit codes packed two a byte (data uint8 [262144, 1280]), float16
// scales [262144, 80] (block_size 32), no zero points (8): 377 MB, random (fixed seed), stored as
// external data in one file beside the model, in a temporary folder (removed at the end). All three
// engines load the same two files. The model, onnxruntime-genai's form (issue 30's bench):
// GatherBlockQuantized(data, ids, scales; block_size 32, bits 4, gather_axis 0, quantize_axis 1),
// then out = Mul by Gemma's embedding scale (round(sqrt(2560), 2): 50.6, the float16 50.59375), ids
// int64 [batch, seq], out float16 [batch, seq, 2560]; opsets '' 21 and com.microsoft 1. The feed: 512 random ids (fixed seed), [1, 512].
// onnx-wasm runs twice: with the table in wasm memory, and with its codes kept in their file
// (onnx-wasm-file: a run reads the rows of its ids and their scales; issue 30's targets: a run <= 5 ms, create <=
// 50 ms, under 150 MB RSS).
// In one process: each engine's first create (ms, process RSS after it and the RSS it added), a
// byte comparison of the three outputs, then interleaved rounds (one run of each engine a round,
// in a rotating order) after warm-up: median, p10 and p90 per engine. Then each engine alone in a
// fresh child process (clean create time and RSS: before, after create, peak), onnx-wasm's
// pthreads build included. A benchmark, not a test: nothing asserts a time.
// In the process of the three, onnxruntime-node's threads do not spin after a run (see engine());
// --ort-node-spin keeps its default there too.
//   node bench/embeddings.mjs [--runs 50] [--warmup 5] [--no-children] [--ort-node-spin] [--keep]
//   node bench/embeddings.mjs --engine <name> --dir <folder>   (a child: one engine, prints JSON)
//   node bench/embeddings.mjs --browser [--runs 50] [--warmup 5] [--keep]   (Chromium, OPFS: below)
// --rows N: a table of N rows instead of 262,144 (a quick check of the bench itself).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { peakRssMB } from './peak-rss.mjs';

const here = fileURLToPath(import.meta.url);
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', 50)), WARMUP = Number(option('--warmup', 5));

const ROWS = Number(option('--rows', 262144)), COLS = 2560, BLOCK = 32, BITS = 4, SEQ = 512;
const DATA_BYTES = (ROWS * COLS * BITS) / 8;                  // 335,544,320
const SCALE_COUNT = (ROWS * COLS) / BLOCK, SCALE_BYTES = SCALE_COUNT * 2;   // 41,943,040
const SCALE = 0x5253;   // float16 50.59375: Gemma's round(sqrt(hidden), 2) for hidden 2,560
const FILE = 'embeddings.bin', TARGET_MS = 2.5, TARGET_FILE_MS = 5, TARGET_FILE_CREATE_MS = 50, TARGET_FILE_RSS_MB = 150;
// onnx-wasm-file: the same session with the codes kept in their file (externalDataMode 'lazy'):
// a run reads the rows of its ids, and of their scales, kept in the file too.
const ENGINES = ['onnx-wasm', 'onnx-wasm-file', 'onnxruntime-web', 'onnxruntime-node'];

// gc() without --expose-gc, so that RSS figures are taken after a collection.
v8.setFlagsFromString('--expose-gc');
const gc = globalThis.gc ?? vm.runInNewContext('gc');
const MB = 2 ** 20;
const rssMB = () => process.memoryUsage().rss / MB;
const peakMB = peakRssMB;   // (this process's own: peak-rss.mjs)
async function settle() {
  gc();
  await new Promise((r) => setTimeout(r, 30));
  gc();
}

// xorshift32 (fills 377 MB in about a second, a Uint32Array word at a time).
function xorshift(seed) {
  let x = seed | 0 || 1;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
}

// The ids: SEQ random rows (fixed seed), the same in every engine and process.
function idValues() {
  const next = xorshift(0x5eed1d5);
  return BigInt64Array.from({ length: SEQ }, () => BigInt(next() % ROWS));
}

// ---- the model and its external data ----
// model.onnx and embeddings.bin (codes at offset 0, scales after them) in `dir`, made by
// tests/support/external-models.mjs (imported here, not at the top: the children that measure
// RSS need none of it). Returns the ms to generate the bytes and to write them.
async function makeFiles(dir) {
  const { gatherBlockQuantizedBytes, gatherBlockQuantizedModel } = await import('../tests/support/external-models.mjs');
  const shape = { rows: ROWS, cols: COLS, block: BLOCK, bits: BITS };
  const t0 = performance.now();
  const buf = gatherBlockQuantizedBytes(shape);
  if (buf.length !== DATA_BYTES + SCALE_BYTES) throw new Error(`${FILE}: ${buf.length} bytes, expected ${DATA_BYTES + SCALE_BYTES}`);
  const t1 = performance.now();
  writeFileSync(join(dir, FILE), buf);
  writeFileSync(join(dir, 'model.onnx'), gatherBlockQuantizedModel({ ...shape, location: FILE, scale: SCALE }));
  return { generateMs: t1 - t0, writeMs: performance.now() - t1 };
}

// ---- the engines ----
// The onnxruntime-web files its Emscripten glue reads (fs.readFileSync of the .wasm in Node).
const ortWebReads = [];
function watchOrtWebReads() {
  const fs = require('node:fs');
  const original = fs.readFileSync;
  fs.readFileSync = function readFileSync(path, ...rest) {
    const p = path instanceof URL ? fileURLToPath(path) : String(path);
    if (p.includes('onnxruntime-web') && !ortWebReads.includes(p)) ortWebReads.push(p);
    return original.call(this, path, ...rest);
  };
}
function ortWebFile() {
  const wasm = ortWebReads.filter((p) => p.endsWith('.wasm'));
  if (wasm.length === 0) return 'unknown (no .wasm read through fs.readFileSync)';
  return wasm.map((p) => `${basename(p)} (${(statSync(p).size / MB).toFixed(1)} MB; ${p.endsWith('ort-wasm-simd-threaded.wasm') ? 'the plain build, not asyncify/JSPI/JSEP' : 'NOT the plain build'})`).join(', ');
}

// An engine: { name, config, create(), run() (timed; output dropped), output() -> { dims, u16 }, release() }.
// mods: the loaded packages ({ ortNode, ortWeb, onnxWasm }). noSpin: onnxruntime-node's intra-op
// threads do not spin-wait after a run (session config intra_op.allow_spinning = 0). In one
// process that is needed: with the default (spinning), its idle worker keeps one of the cores busy
// after each of its runs and the next engine's runs, onnx-wasm's and onnxruntime-web's, were
// measured 2-3x slower than alone on a 2-core machine. Alone in a child it keeps the default.
function engine(name, mods, dir, { noSpin = false } = {}) {
  const model = join(dir, 'model.onnx');
  const ids = idValues();
  if (name === 'onnx-wasm' || name === 'onnx-wasm-threads' || name === 'onnx-wasm-file') {
    const o = mods.onnxWasm;
    const mode = name === 'onnx-wasm-file' ? 'lazy' : 'memory';
    let session, feed;
    return {
      name,
      config: () => {
        const r = o.runtime();
        const where = session ? ['data', 'scales'].map((t) => `${t}: ${session.valueInfo(t).storage}`).join(', ') : '';
        return `js/index.mjs, ${r.module} (${r.threads} thread${r.threads === 1 ? '' : 's'}${r.threads > 1 ? `, workers ${r.threadsActive ? 'ready' : 'NOT ready'}` : ''}); InferenceSession.create(modelPath, { externalDataMode: '${mode}' }): external data ${mode === 'lazy' ? 'kept in' : 'read from'} the file beside the model (${where}); feed: an onnx-wasm Tensor made once`;
      },
      async create() {
        session = await o.InferenceSession.create(model, { externalDataMode: mode });
        feed = new o.Tensor('int64', ids, [1, SEQ]);
      },
      async run() { const { out } = await session.run({ ids: feed }); out.dispose(); },
      async output() {
        const { out } = await session.run({ ids: feed });
        const u16 = new Uint16Array(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength).slice().buffer);
        const r = { dims: Array.from(out.dims, Number), type: out.type, u16 };
        out.dispose();
        return r;
      },
      async release() { feed?.dispose(); await session?.release(); },
    };
  }
  const web = name === 'onnxruntime-web';
  const ort = web ? mods.ortWeb : mods.ortNode;
  let session;
  const feed = new ort.Tensor('int64', ids, [1, SEQ]);
  return {
    name,
    config: () => (web
      ? `onnxruntime-web ${ort.env.versions.web} (require('onnxruntime-web') -> ${basename(require.resolve('onnxruntime-web'))}), env.wasm.numThreads = 1, env.wasm.proxy = ${ort.env.wasm.proxy ?? false}, env.wasm.wasmPaths = ${JSON.stringify(ort.env.wasm.wasmPaths)} (default); wasm file: ${ortWebFile()}; InferenceSession.create(modelPath, { executionProviders: ['wasm'], externalData: [{ path: '${FILE}', data: '<folder>/${FILE}' }] }) (the path, read by onnxruntime-web with fs)`
      : `onnxruntime-node ${ort.env.versions.node}, ${noSpin ? "session options { extra: { session: { intra_op: { allow_spinning: '0' } } } } (otherwise default)" : 'default session options'} (CPU EP, default intra-op threads; ${os.availableParallelism?.() ?? os.cpus().length} cores); InferenceSession.create(modelPath${noSpin ? ', options' : ''}): external data found beside the model by onnxruntime itself`),
    async create() {
      session = web
        ? await ort.InferenceSession.create(model, { executionProviders: ['wasm'], externalData: [{ path: FILE, data: join(dir, FILE) }] })
        : await ort.InferenceSession.create(model, noSpin ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {});
    },
    async run() { const r = await session.run({ ids: feed }); r.out.dispose?.(); },
    async output() {
      const { out } = await session.run({ ids: feed });
      const u16 = new Uint16Array(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength).slice().buffer);
      const r = { dims: Array.from(out.dims, Number), type: out.type, u16 };
      out.dispose?.();
      return r;
    },
    async release() { await session?.release(); },
  };
}

async function loadModules(names) {
  const mods = {};
  // onnxruntime-node before onnxruntime-web (see bench/run.mjs).
  if (names.includes('onnxruntime-node')) mods.ortNode = require('onnxruntime-node');
  if (names.includes('onnxruntime-web')) {
    watchOrtWebReads();
    mods.ortWeb = require('onnxruntime-web');
    mods.ortWeb.env.wasm.numThreads = 1;
    mods.ortWeb.env.logLevel = 'error';
  }
  if (names.some((n) => n.startsWith('onnx-wasm'))) {
    mods.onnxWasm = await import('../js/index.mjs');
    const t = performance.now();
    await mods.onnxWasm.init(names.includes('onnx-wasm-threads') ? {} : { threads: false });
    if (names.includes('onnx-wasm-threads')) await mods.onnxWasm.threadsReady();
    mods.initMs = performance.now() - t;
  }
  return mods;
}

const hashOf = (u16) => createHash('sha256').update(new Uint8Array(u16.buffer, u16.byteOffset, u16.byteLength)).digest('hex').slice(0, 16);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))))];
function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { median: percentile(s, 50), p10: percentile(s, 10), p90: percentile(s, 90), n: s.length };
}
const errorText = (e) => String(e?.message ?? e).split('\n')[0].slice(0, 300);

// ---- a child: one engine alone in its process; prints one JSON line ----
async function child(name, dir) {
  const mods = await loadModules([name]);
  const e = engine(name, mods, dir);
  await settle();
  const before = rssMB();
  const t0 = performance.now();
  try {
    await e.create();
  } catch (err) {
    return { error: errorText(err), config: e.config(), peakMB: peakMB(), beforeMB: before };
  }
  const createMs = performance.now() - t0;
  const afterCreate = rssMB();
  await settle();
  const settled = rssMB();
  const out = await e.output();
  for (let i = 0; i < WARMUP; ++i) await e.run();
  const samples = [];
  for (let i = 0; i < RUNS; ++i) {
    const t = performance.now();
    await e.run();
    samples.push(performance.now() - t);
  }
  const config = e.config();
  await e.release();
  return {
    createMs, initMs: mods.initMs, beforeMB: before, afterCreateMB: afterCreate, settledMB: settled, peakMB: peakMB(),
    ...stats(samples), hash: hashOf(out.u16), dims: out.dims, config,
  };
}

if (args.includes('--engine')) {
  let r;
  try {
    r = await child(option('--engine'), option('--dir'));
  } catch (err) {
    r = { error: errorText(err), peakMB: peakMB() };
  }
  console.log(JSON.stringify(r));
  process.exit(0);
}

// ---- --browser: Chromium, the table cached in OPFS, sessions in a dedicated worker ----
// The same two files served on localhost to headless Chromium with a disk-backed temporary
// profile (bench/opfs-browser.mjs, shared with bench/large-tables.mjs --opfs). onnx-wasm (js/,
// its one-thread SIMD build: the page is not cross-origin isolated) creates the session with
// { cache: 'opfs', externalDataMode: 'lazy' }: the codes and the scales kept in OPFS and read by
// rows through a sync access handle, two reads a row. Visits, each a fresh page:
//   1. first visit, worker session: create downloads model and data into OPFS;
//   2. cached, main thread (rows read by the package's reader worker, sent over in one
//      transferred buffer a run);
//   3. cached, worker, with cacheRowLayout: its create writes the entry's second file, each row's
//      codes and scales side by side; runs read a row in one read;
//   4-7. cached, worker, without and with cacheRowLayout in turn (4 and 6 without, 5 and 7 with);
//   8. worker, { cache: 'opfs', externalDataMode: 'memory' }: the whole table read from OPFS into
//      wasm memory (no row reads in a run: the difference to 4-7 is what reading the rows costs);
//   9. onnxruntime-web's plain wasm build (1 thread) in a page, given model and data by URL.
// Each visit: create, a first run of the fixed ids, WARMUP runs, then RUNS runs of 512 random ids
// (a fresh set each run, the same sets in every visit); run times are taken where the session
// runs (performance.now() around session.run(), in the worker for a worker session). Every output
// is compared with onnx-wasm's in Node (the table in memory) on the same ids, by SHA-256 of its
// bytes. Chromium's RSS (all its processes) is sampled every 250 ms: its peak over visit 1, over
// 2-7, over 8 and over 9. Nothing asserts a time; an output that differs sets exit code 1.
async function browserBench() {
  const { openOpfsBrowser } = await import('./opfs-browser.mjs');
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');
  const dir = mkdtempSync(join(os.tmpdir(), 'onnx-wasm-embeddings-browser-'));
  let b = null;
  try {
    const made = await makeFiles(dir);
    const fixed = Array.from(idValues(), Number);
    const next = xorshift(0xb10b5eed);
    const sets = Array.from({ length: WARMUP + RUNS }, () => Array.from({ length: SEQ }, () => next() % ROWS));
    let commit = '?';
    try { commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: join(here, '../..'), encoding: 'utf8' }).trim(); } catch { /* not a checkout */ }
    console.log(`GatherBlockQuantized embeddings in Chromium: [${ROWS}, ${COLS}] 4-bit codes (uint8 [${ROWS}, ${COLS / 2}], ${(DATA_BYTES / 1e6).toFixed(1)} MB) + float16 scales [${ROWS}, ${COLS / BLOCK}] (${(SCALE_BYTES / 1e6).toFixed(1)} MB) then Mul by a float16 scalar (50.59375), in ${FILE}, generated in ${made.generateMs.toFixed(0)} ms, written in ${made.writeMs.toFixed(0)} ms, in ${dir}; commit ${commit}`);

    // The reference: onnx-wasm in Node, the table in memory, on the same ids.
    const o = await import('../js/index.mjs');
    await o.init({ threads: false });
    const ref = await o.InferenceSession.create(join(dir, 'model.onnx'), { externalDataMode: 'memory' });
    const refHash = async (ids) => {
      const feed = new o.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, SEQ]);
      const { out } = await ref.run({ ids: feed });
      const h = hashOf(out.data);
      out.dispose();
      feed.dispose();
      return h;
    };
    const want = { fixed: await refHash(fixed), sets: [] };
    for (const ids of sets) want.sets.push(await refHash(ids));
    await ref.release();

    b = await openOpfsBrowser(dir);
    console.log(`Chromium ${b.version}, headless, disk-backed temporary profile; ids int64 [1, ${SEQ}]; ${WARMUP} warm-up runs, then ${RUNS} runs of random ids a visit; Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()}); load average ${load()}`);
    let differ = 0, compared = 0;
    const same = (r, hash) => {
      if (r.error) throw new Error(`${r.error}: ${r.message}`);
      ++compared;
      if (r.hash !== hash) ++differ;
      return r.hash === hash;
    };
    // One visit of onnx-wasm: a fresh page, a session in `where`, its runs.
    const visit = async (where, options) => {
      const p = await b.page();
      try {
        const c = await b.call(p, where, 'timedCreate', 'model.onnx', options, 'data');
        if (c.error) throw new Error(`create (${where}): ${c.error}: ${c.message}`);
        const first = await b.call(p, where, 'timedRunHash', c.id, fixed, [1, SEQ]);
        let identical = same(first, want.fixed);
        const times = [];
        for (let k = 0; k < sets.length; ++k) {
          const r = await b.call(p, where, 'timedRunHash', c.id, sets[k], [1, SEQ]);
          identical = same(r, want.sets[k]) && identical;
          if (k >= WARMUP) times.push(r.ms);
        }
        await b.call(p, where, 'release', c.id);
        return { createMs: c.ms, storage: c.info.storage, firstMs: first.ms, ...stats(times), identical };
      } finally {
        await p.close();
      }
    };
    const rows = [];
    const row = (label, r, peak) => {
      rows.push({
        visit: label, 'create ms': r.createMs.toFixed(1), 'first run ms': r.firstMs.toFixed(2),
        'median run ms': r.median.toFixed(2), 'p10 ms': r.p10.toFixed(2), 'p90 ms': r.p90.toFixed(2),
        'codes in': r.storage ?? '-', 'identical to Node': r.identical ? 'yes' : 'NO', 'peak RSS MB': peak === undefined ? '' : peak.toFixed(0),
      });
      console.error(`${label}: create ${r.createMs.toFixed(1)} ms, first run ${r.firstMs.toFixed(2)} ms, median ${r.median.toFixed(2)} ms`);
    };
    const lazy = { cache: 'opfs', externalDataMode: 'lazy' };
    // cacheRowLayout: the codes and scales of each row side by side in a second file of the entry
    // (written at the first create that asks for it), one read a row.
    const rowLayout = { ...lazy, cacheRowLayout: true };
    const v1 = await visit('worker', lazy);
    row('1. first visit, worker (download into OPFS)', v1, b.peak());
    b.resetPeak();
    const cached = [
      ['2. cached, main thread', 'main', lazy], ['3. cached, worker, cacheRowLayout (writes the row layout)', 'worker', rowLayout],
      ['4. cached, worker', 'worker', lazy], ['5. cached, worker, cacheRowLayout', 'worker', rowLayout],
      ['6. cached, worker', 'worker', lazy], ['7. cached, worker, cacheRowLayout', 'worker', rowLayout],
    ];
    const results = [];
    for (const [label, where, options] of cached) results.push([label, await visit(where, options)]);
    const peakCached = b.peak();
    results.forEach(([label, r], k) => row(label, r, k === results.length - 1 ? peakCached : undefined));
    b.resetPeak();
    row("8. cached, worker, externalDataMode 'memory'", await visit('worker', { cache: 'opfs', externalDataMode: 'memory' }), b.peak());
    b.resetPeak();

    // onnxruntime-web, plain wasm build, 1 thread, in a page: model and data by URL.
    const p = await b.ortPage();
    let ortVersion = '?';
    try {
      const c = await p.evaluate(`ortCreate('model.onnx', [{ path: '${FILE}', data: '${FILE}' }])`);
      ortVersion = c.version;
      if (c.error) throw new Error(`create failed after ${c.ms.toFixed(0)} ms: ${c.error}`);
      const run = (ids) => p.evaluate(`ortRun(${JSON.stringify(ids)}, { name: 'ids', dims: [1, ${SEQ}], hash: true })`);
      const first = await run(fixed);
      let identical = same(first, want.fixed);
      const times = [];
      for (let k = 0; k < sets.length; ++k) {
        const r = await run(sets[k]);
        identical = same(r, want.sets[k]) && identical;
        if (k >= WARMUP) times.push(r.ms);
      }
      row(`9. onnxruntime-web ${ortVersion} (wasm, 1 thread), by URL`, { createMs: c.ms, storage: 'wasm memory', firstMs: first.ms, ...stats(times), identical }, b.peak());
    } catch (e) {
      console.log(`onnxruntime-web ${ortVersion}: ${errorText(e)}`);
    } finally {
      await p.close().catch(() => {});
    }

    console.log(`\nChromium, onnx-wasm sessions with { cache: 'opfs' } (create: InferenceSession.create in the worker or page; runs: 512 ids, timed where the session runs; peak RSS: Chromium's processes, over visit 1, over visits 2-7, over 8, over 9)`);
    console.table(rows);
    const medians = (end) => results.filter(([label]) => label.endsWith(end)).map(([, r]) => r.median);
    const worker = medians('worker'), byRows = medians('cacheRowLayout');
    console.log(`worker session, cached in OPFS: median run ${worker.map((m) => m.toFixed(2)).join(' and ')} ms (target <= ${TARGET_FILE_MS} ms: ${worker.every((m) => m <= TARGET_FILE_MS) ? 'met' : 'NOT met'})`);
    console.log(`the same with cacheRowLayout, visits taken in turn with those: median run ${byRows.map((m) => m.toFixed(2)).join(' and ')} ms (target <= ${TARGET_FILE_MS} ms: ${byRows.every((m) => m <= TARGET_FILE_MS) ? 'met' : 'NOT met'})`);
    console.log(`outputs: ${differ === 0 ? `all ${compared} byte-identical to onnx-wasm's in Node (SHA-256)` : `${differ} of ${compared} DIFFER from onnx-wasm's in Node`}; load average after: ${load()}`);
    if (differ) process.exitCode = 1;
  } finally {
    await b?.close();
    if (args.includes('--keep')) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (args.includes('--browser')) {
  await browserBench();
  process.exit(process.exitCode ?? 0);
}

// ---- the parent: the three engines in one process ----
const loadText = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');
const f1 = (x) => (x === undefined ? '-' : x.toFixed(1));
const f2 = (x) => (x === undefined ? '-' : x.toFixed(2));
const dir = mkdtempSync(join(os.tmpdir(), 'onnx-wasm-embeddings-'));
try {
  const mods = await loadModules(ENGINES);
  const made = await makeFiles(dir);
  const bytes = statSync(join(dir, FILE)).size;
  console.log(`GatherBlockQuantized embeddings: [${ROWS}, ${COLS}] 4-bit codes (uint8 [${ROWS}, ${COLS / 2}]) + float16 scales [${ROWS}, ${COLS / BLOCK}] (block_size ${BLOCK}, no zero points), then Mul by a float16 scalar (50.59375): ${(bytes / 1e6).toFixed(1)} MB in ${FILE} beside model.onnx (${statSync(join(dir, 'model.onnx')).size} bytes), generated in ${made.generateMs.toFixed(0)} ms, written in ${made.writeMs.toFixed(0)} ms, in ${dir}`);
  console.log(`ids: int64 [1, ${SEQ}], random in [0, ${ROWS}) (fixed seed); out: float16 [1, ${SEQ}, ${COLS}]; ${WARMUP} warm-up runs, then ${RUNS} interleaved rounds; Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; load average ${loadText()}`);
  console.log(`All three load the external data from the file (none inlined).`);

  // First creates, one engine after the other, with the process RSS after each.
  await settle();
  const rss0 = rssMB();
  console.log(`\nprocess RSS before any session (packages loaded, onnx-wasm init() done in ${f1(mods.initMs)} ms): ${f1(rss0)} MB`);
  const engines = [], results = {};
  for (const name of ENGINES) {
    const e = engine(name, mods, dir, { noSpin: !args.includes('--ort-node-spin') });
    await settle();
    const before = rssMB();
    const t0 = performance.now();
    try {
      await e.create();
    } catch (err) {
      results[name] = { error: errorText(err) };
      console.log(`${name}: create FAILED: ${errorText(err)}`);
      console.log(`  config: ${e.config()}`);
      continue;
    }
    const createMs = performance.now() - t0;
    const after = rssMB();
    await settle();
    const settled = rssMB();
    results[name] = { createMs, before, after, settled, delta: settled - before };
    engines.push(e);
    console.log(`${name}: create ${f1(createMs)} ms; process RSS after create ${f1(after)} MB (after GC ${f1(settled)} MB), +${f1(settled - before)} MB for this engine`);
  }

  // The outputs, byte for byte (as Uint16Array), against onnxruntime-node's (the reference).
  const outputs = {};
  for (const e of engines) outputs[e.name] = await e.output();
  const ref = outputs['onnxruntime-node'] ?? outputs[engines[0]?.name];
  const identical = {};
  for (const e of engines) {
    const o = outputs[e.name];
    let diff = 0, first = -1;
    if (o.u16.length === ref.u16.length) {
      for (let i = 0; i < o.u16.length; ++i) if (o.u16[i] !== ref.u16[i]) { ++diff; if (first < 0) first = i; }
    }
    const same = o.u16.length === ref.u16.length && diff === 0 && JSON.stringify(o.dims) === JSON.stringify(ref.dims);
    identical[e.name] = same;
    results[e.name].hash = hashOf(o.u16);
    if (!same) console.log(`${e.name}: output differs from onnxruntime-node's: dims [${o.dims}] vs [${ref.dims}], ${diff} of ${o.u16.length} float16 differ${first >= 0 ? ` (first at ${first}: 0x${o.u16[first].toString(16)} vs 0x${ref.u16[first].toString(16)})` : ''}`);
  }
  const allSame = engines.length === ENGINES.length && engines.every((e) => identical[e.name]);
  console.log(`outputs: ${engines.map((e) => `${e.name} ${outputs[e.name].type} [${outputs[e.name].dims}] sha256 ${results[e.name].hash}`).join('; ')}`);
  console.log(`the ${engines.length} outputs are ${allSame ? 'byte-identical (Uint16Array compare)' : 'NOT all byte-identical'}`);

  // Interleaved rounds: one run of each engine a round, the order rotating.
  for (let i = 0; i < WARMUP; ++i) for (const e of engines) await e.run();
  const samples = Object.fromEntries(engines.map((e) => [e.name, []]));
  for (let r = 0; r < RUNS; ++r) {
    for (let k = 0; k < engines.length; ++k) {
      const e = engines[(r + k) % engines.length];
      const t1 = performance.now();
      await e.run();
      samples[e.name].push(performance.now() - t1);
    }
  }
  for (const e of engines) Object.assign(results[e.name], stats(samples[e.name]));
  const configs = Object.fromEntries(engines.map((e) => [e.name, e.config()]));
  for (const e of engines) await e.release();

  const ours = results['onnx-wasm'];
  const ratio = (x, y) => (x !== undefined && y !== undefined ? `${(x / y).toFixed(2)}x` : '-');
  console.log(`\nIn one process (RSS in MB of 2^20 bytes; RSS is cumulative: each engine's figure is what it added, after GC, to the process as it was)`);
  console.table(ENGINES.map((name) => {
    const r = results[name];
    if (r.error) return { engine: name, 'create ms': 'FAILED', 'run median ms': '-', 'p10 ms': '-', 'p90 ms': '-', 'RSS after create MB': '-', 'RSS delta MB': '-', 'identical output': '-', 'run ratio / onnx-wasm': '-', 'create ratio / onnx-wasm': '-' };
    return {
      engine: name,
      'create ms': f1(r.createMs),
      'run median ms': f2(r.median),
      'p10 ms': f2(r.p10),
      'p90 ms': f2(r.p90),
      'RSS after create MB': f1(r.after),
      'RSS delta MB': f1(r.delta),
      'identical output': identical[name] ? 'yes' : 'NO',
      'run ratio / onnx-wasm': ratio(r.median, ours?.median),
      'create ratio / onnx-wasm': ratio(r.createMs, ours?.createMs),
    };
  }));
  if (ours?.median !== undefined) {
    console.log(`onnx-wasm (1 thread): ${f2(ours.median)} ms a run (target <= ${TARGET_MS} ms: ${ours.median <= TARGET_MS ? 'met' : 'NOT met'}); ` +
      `onnxruntime-web / onnx-wasm ${ratio(results['onnxruntime-web'].median, ours.median)}, onnxruntime-node / onnx-wasm ${ratio(results['onnxruntime-node'].median, ours.median)} (run medians)`);
  }
  const kept = results['onnx-wasm-file'];
  if (kept?.median !== undefined) {
    console.log(`onnx-wasm, the codes kept in their file: ${f2(kept.median)} ms a run (target <= ${TARGET_FILE_MS} ms: ${kept.median <= TARGET_FILE_MS ? 'met' : 'NOT met'}), ` +
      `create ${f1(kept.createMs)} ms (target <= ${TARGET_FILE_CREATE_MS} ms: ${kept.createMs <= TARGET_FILE_CREATE_MS ? 'met' : 'NOT met'}; its RSS alone: the children below, target < ${TARGET_FILE_RSS_MB} MB)`);
  }
  console.log(`load average after the rounds: ${loadText()}`);
  console.log('configurations:');
  for (const name of ENGINES) console.log(`  ${name}: ${configs[name] ?? results[name].error}`);

  // Each engine alone in a fresh process.
  if (!args.includes('--no-children')) {
    const children = ['onnx-wasm', 'onnx-wasm-file', 'onnx-wasm-threads', 'onnxruntime-web', 'onnxruntime-node'];
    const rows = [], childConfigs = [];
    for (const name of children) {
      let r;
      try {
        const text = execFileSync(process.execPath, [here, '--engine', name, '--dir', dir, '--runs', String(RUNS), '--warmup', String(WARMUP)], { encoding: 'utf8', maxBuffer: 1 << 20 });
        r = JSON.parse(text.trim().split('\n').pop());
      } catch (err) {
        r = { error: errorText(err) };
      }
      const refHash = results['onnxruntime-node']?.hash;
      rows.push(r.error ? { engine: name, 'create ms': `FAILED: ${r.error}` } : {
        engine: name,
        'create ms': f1(r.createMs),
        'run median ms': f2(r.median),
        'p10 ms': f2(r.p10),
        'p90 ms': f2(r.p90),
        'RSS before MB': f1(r.beforeMB),
        'RSS after create MB': f1(r.afterCreateMB),
        'RSS delta MB (after GC)': f1(r.settledMB - r.beforeMB),
        'peak RSS MB': f1(r.peakMB),
        'identical output': refHash ? (r.hash === refHash ? 'yes' : 'NO') : `sha256 ${r.hash}`,
        'run ratio / onnx-wasm 1 thread': '',
      });
      childConfigs.push(`  ${name}: ${r.config ?? r.error}${r.initMs !== undefined ? `; init() ${f1(r.initMs)} ms before create` : ''}`);
      console.error(`child ${name}: ${r.error ? `FAILED ${r.error}` : `create ${f1(r.createMs)} ms, run ${f2(r.median)} ms`}`);
    }
    const base = rows[0]?.['run median ms'];
    for (const row of rows) if (row['run median ms'] && base && base !== '-') row['run ratio / onnx-wasm 1 thread'] = `${(Number(row['run median ms']) / Number(base)).toFixed(2)}x`;
    console.log(`\nEach engine alone in a fresh process (${WARMUP} warm-up runs, then ${RUNS} runs; identical: sha256 of the output equals onnxruntime-node's in the process above; peak RSS: the child's own high-water mark, VmHWM, over the whole child)`);
    console.table(rows);
    console.log(`load average after the children: ${loadText()}`);
    console.log('configurations:');
    for (const c of childConfigs) console.log(c);
  }
} finally {
  if (args.includes('--keep')) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  if (existsSync(dir) && !args.includes('--keep')) console.log(`could not remove ${dir}: ${readdirSync(dir).join(', ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(process.exitCode ?? 0);
