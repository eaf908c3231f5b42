// `npm run bench:tables`: embedding tables of 1.08, 2.76 and 6.14 GB (float32 [N, 768]) in
// external data beside a Gather model, made in a temporary folder (removed after, never in git).
// Each engine and mode runs in a fresh process, so that each measures its own create time and
// peak RSS: fs.readFileSync of the table (the reference) and the same reads into a fresh Buffer
// without readFileSync's 2 GiB limit (fs.readSync), onnx-wasm with externalDataMode
// 'memory', 'lazy' and 'auto', onnxruntime-web (1 thread) and onnxruntime-node (which memory-maps
// external data). Every engine gets the same 512 indices first (checked against the table's
// pattern and compared across engines), then 20 runs of random indices (median).
// --browser adds Chromium loading the 2.76 GB table from a File picked in the page.
// --opfs adds, for each size, the OPFS cache in Chromium with a disk-backed temporary profile
// (docs/large-tables-browser.md): first-visit create (download into OPFS) and MB/s, cached create,
// first and median 512-row runs from a main-thread session, a worker session and a File kept as
// before, and the browser's peak RSS. --browser-only skips the Node engines.
// A benchmark, not a test: nothing asserts a time; a wrong row is an error (exit 1).
//   node bench/large-tables.mjs [--sizes 1,2.7,6] [--browser] [--opfs] [--browser-only] [--json out.json] [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRssMB } from './peak-rss.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COLS = 768, ROWS = { 1: 350000, 2.7: 900000, 6: 2000000 };
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);

// Element (r, c) of the table: r + c / 1024, as float32.
const expected = (r, c) => Math.fround(r + c / 1024);

// The first run's indices: spread over the table, with repeats, adjacent runs and negatives.
function firstIndices(rows) {
  const out = [];
  for (let k = 0; out.length < 448; ++k) out.push((k * 7919 * 131) % rows);
  for (let k = 0; k < 32; ++k) out.push(1000 + k);           // adjacent rows
  for (let k = 0; k < 16; ++k) out.push(out[k * 3]);         // repeats
  for (let k = 1; k <= 16; ++k) out.push(-k);                // the last rows, as negative indices
  return out;
}

// ---- child: one engine, one mode, one table; prints one JSON line ----
async function child(engine, mode, dir, rows) {
  const t0 = performance.now();
  const rss = () => Math.round(peakRssMB());   // (this process's own: peak-rss.mjs)
  if (engine === 'readFileSync') {
    const fs = await import('node:fs');
    try {
      const b = fs.readFileSync(join(dir, 'table.bin'));
      return { createMs: performance.now() - t0, rssMB: rss(), note: `${b.length} bytes` };
    } catch (e) {
      return { error: e.message, rssMB: rss() };
    }
  }
  if (engine === 'readSync') {
    // What readFileSync does, without its 2 GiB limit: a fresh Buffer filled by positioned reads.
    const fs = await import('node:fs');
    const size = fs.statSync(join(dir, 'table.bin')).size;
    const buf = Buffer.allocUnsafe(size);
    const fd = fs.openSync(join(dir, 'table.bin'), 'r');
    for (let done = 0; done < size;) done += fs.readSync(fd, buf, done, Math.min(64 << 20, size - done), done);
    return { createMs: performance.now() - t0, rssMB: rss(), note: 'a fresh Buffer, 64 MiB positioned reads' };
  }
  const first = firstIndices(rows);
  let x = 12345;
  const next = () => { x = (x * 1103515245 + 12345) % 2147483648; return x % rows; };
  const random = Array.from({ length: 20 }, () => Array.from({ length: 512 }, next));
  let create, run, where = '';
  if (engine === 'onnx-wasm') {
    const o = await import('../dist/index.mjs');
    await o.init();
    const session = await o.InferenceSession.create(join(dir, 'model.onnx'), { externalDataMode: mode });
    create = performance.now() - t0;
    const info = session.valueInfo('table');
    where = `${info.storage}${info.location ? ` (${info.location})` : ''}`;
    run = async (idx) => {
      const feed = new o.Tensor('int64', BigInt64Array.from(idx, BigInt), [idx.length]);
      const { out } = await session.run({ indices: feed });
      const data = out.data.slice();
      out.dispose(); feed.dispose();
      return data;
    };
  } else {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const ort = engine === 'onnxruntime-node' ? require('onnxruntime-node') : require('onnxruntime-web');
    if (engine === 'onnxruntime-web') ort.env.wasm.numThreads = 1;
    const session = engine === 'onnxruntime-node'
      ? await ort.InferenceSession.create(join(dir, 'model.onnx'))
      : await ort.InferenceSession.create(readFileSync(join(dir, 'model.onnx')), { externalData: [{ path: 'table.bin', data: join(dir, 'table.bin') }] });
    create = performance.now() - t0;
    run = async (idx) => (await session.run({ indices: new ort.Tensor('int64', BigInt64Array.from(idx, BigInt), [idx.length]) })).out.data.slice();
  }
  const t1 = performance.now();
  const out = await run(first);
  const firstMs = performance.now() - t1;
  // Every row checked at three columns against the pattern.
  first.forEach((i, k) => {
    const r = i < 0 ? i + rows : i;
    for (const c of [0, 1, COLS - 1])
      if (out[k * COLS + c] !== expected(r, c)) throw new Error(`row ${k} (index ${i}) column ${c}: ${out[k * COLS + c]}, expected ${expected(r, c)}`);
  });
  const hash = createHash('sha256').update(new Uint8Array(out.buffer, out.byteOffset, out.byteLength)).digest('hex').slice(0, 16);
  const times = [];
  for (const idx of random) {
    const t = performance.now();
    await run(idx);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { createMs: create, firstMs, medianMs: times[times.length >> 1], rssMB: rss(), where, hash };
}

if (args[0] === '--child') {
  const [, engine, mode, dir, rows] = args;
  try {
    console.log(JSON.stringify(await child(engine, mode, dir, Number(rows))));
  } catch (e) {
    console.log(JSON.stringify({ error: String(e.message).split('\n')[0].slice(0, 300), rssMB: Math.round(peakRssMB()) }));
  }
  process.exit(0);
}

// ---- parent ----
function makeTable(dir, rows, model) {
  writeFileSync(join(dir, 'model.onnx'), model);
  const fd = openSync(join(dir, 'table.bin'), 'w');
  const block = 4096, buf = new Float32Array(block * COLS);
  for (let r0 = 0; r0 < rows; r0 += block) {
    const n = Math.min(block, rows - r0);
    for (let r = 0; r < n; ++r) for (let c = 0; c < COLS; ++c) buf[r * COLS + c] = r0 + r + c / 1024;
    writeSync(fd, new Uint8Array(buf.buffer, 0, n * COLS * 4));
  }
  closeSync(fd);
}

// Reads the file once so that it is in the page cache before an engine reads it (this machine
// reclaims cold pages: a table read minutes ago may be on disk again).
const warm = (path) => new Promise((ok, fail) => createReadStream(path, { highWaterMark: 8 << 20 }).on('data', () => {}).on('end', ok).on('error', fail));

const engines = [
  ['readFileSync', '-'], ['readSync', '-'],
  ['onnx-wasm', 'memory'], ['onnx-wasm', 'lazy'], ['onnx-wasm', 'auto'],
  ['onnxruntime-web', '-'], ['onnxruntime-node', '-'],
];

async function main() {
  // (imported here, not at the top: the children that measure RSS need none of onnx-buf)
  const { gatherModel } = await import('../tests/support/external-models.mjs');
  const sizes = option('--sizes', '1,2.7,6').split(',').map(Number);
  const root = mkdtempSync(join(tmpdir(), 'onnx-wasm-tables-'));
  const cleanup = () => { if (!flag('--keep')) rmSync(root, { recursive: true, force: true }); };
  process.on('SIGINT', () => { cleanup(); process.exit(130); });
  const results = [];
  try {
    for (const size of sizes) {
      const rows = ROWS[size];
      if (!rows) throw new Error(`--sizes: ${size} is not one of ${Object.keys(ROWS).join(', ')}`);
      const dir = join(root, `t${size}`);
      execFileSync('mkdir', ['-p', dir]);
      let t = performance.now();
      makeTable(dir, rows, gatherModel({ dims: [rows, COLS], indexDims: [512] }));
      const bytes = rows * COLS * 4;
      console.log(`\n[${rows}, ${COLS}] float32 table: ${(bytes / 1e9).toFixed(2)} GB (written in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
      console.log('engine              mode     create ms  first run ms  median ms  peak RSS MB  RSS/table  where / note');
      for (const [engine, mode] of flag('--browser-only') ? [] : engines) {
        await warm(join(dir, 'table.bin'));
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', engine, mode, dir, String(rows)], { encoding: 'utf8', timeout: 300000, maxBuffer: 1 << 20 });
        let row;
        try { row = JSON.parse(r.stdout.trim().split('\n').at(-1)); } catch { row = { error: r.error ? `timeout or failure: ${r.error.message}` : `exit ${r.status}: ${(r.stderr || '').trim().split('\n').at(-1)}` }; }
        results.push({ size, bytes, engine, mode, ...row });
        const f = (x, d = 1) => (x === undefined ? '' : x.toFixed(d));
        console.log(`${engine.padEnd(19)} ${mode.padEnd(8)} ${f(row.createMs, 0).padStart(9)}  ${f(row.firstMs).padStart(12)}  ${f(row.medianMs, 2).padStart(9)}  ${String(row.rssMB ?? '').padStart(11)}  ${row.rssMB ? (row.rssMB * 2 ** 20 / bytes).toFixed(2).padStart(9) : ''}  ${row.error ? `FAILED: ${row.error}` : row.where || row.note || ''}`);
      }
      const hashes = new Set(results.filter((x) => x.size === size && x.hash).map((x) => x.hash));
      console.log(hashes.size <= 1 ? `outputs of the first run: identical across engines (${[...hashes][0] ?? 'none'})` : `OUTPUTS DIFFER: ${[...hashes].join(' ')}`);
      if (hashes.size > 1) process.exitCode = 1;
      if (flag('--browser') && size === 2.7) results.push(await browserCase(dir, rows, bytes));
      if (flag('--opfs')) results.push(await opfsCase(dir, rows, bytes));
      rmSync(join(dir, 'table.bin'), { force: true });
    }
  } finally {
    cleanup();
  }
  if (results.some((r) => r.error && /row \d+ .*column/.test(r.error))) process.exitCode = 1;
  if (option('--json')) writeFileSync(option('--json'), JSON.stringify(results, null, 1));
}

// Chromium: the table as a File picked in the page (playwright passes the path, no copy), loaded
// into wasm memory ('memory') and kept in the File ('lazy'); the model bytes fetched.
async function browserCase(dir, rows, bytes) {
  const { launchChromium, serveDir } = await import('../tests/browser/support.mjs');
  symlinkSync(join(repo, 'js'), join(dir, 'js'));
  symlinkSync(join(repo, 'dist'), join(dir, 'dist'));
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><input type="file" id="table">
<script type="module">
import { init, InferenceSession, Tensor } from './js/index.mjs';
await init();
window.lookup = async (mode, indices) => {
  const t0 = performance.now();
  const model = new Uint8Array(await (await fetch('model.onnx')).arrayBuffer());
  const s = await InferenceSession.create(model, { externalDataMode: mode, externalData: [{ path: 'table.bin', data: document.getElementById('table').files[0] }] });
  const createMs = performance.now() - t0;
  const feed = new Tensor('int64', indices.map(BigInt), [indices.length]);
  const t1 = performance.now();
  const { out } = await s.run({ indices: feed });
  const firstMs = performance.now() - t1;
  const rows = indices.map((i, k) => [out.data[k * ${COLS}], out.data[k * ${COLS} + ${COLS - 1}]]);
  out.dispose(); feed.dispose();
  const where = s.valueInfo('table').storage;
  await s.release();
  return { createMs, firstMs, rows, where };
};
document.body.dataset.ready = '1';
</script>`);
  const server = await serveDir(dir);
  const browser = await launchChromium();
  const results = [];
  try {
    const version = browser.version();
    for (const mode of ['memory', 'lazy']) {
      const page = await browser.newPage();   // a fresh page (and wasm memory) for each mode
      await page.goto(server.url);
      await page.waitForSelector('body[data-ready="1"]');
      await page.setInputFiles('#table', join(dir, 'table.bin'));
      await warm(join(dir, 'table.bin'));
      const first = firstIndices(rows);
      const r = await page.evaluate(`lookup('${mode}', ${JSON.stringify(first)})`);
      const bad = first.findIndex((i, k) => { const x = i < 0 ? i + rows : i; return r.rows[k][0] !== expected(x, 0) || r.rows[k][1] !== expected(x, COLS - 1); });
      if (bad >= 0) throw new Error(`Chromium ${mode}: row ${bad} is wrong`);
      console.log(`Chromium ${version}, a File of ${(bytes / 1e9).toFixed(2)} GB, ${mode.padEnd(6)}: create ${r.createMs.toFixed(0)} ms, first run (512 rows) ${r.firstMs.toFixed(1)} ms, rows right, table in ${r.where}`);
      results.push({ mode, createMs: r.createMs, firstMs: r.firstMs, where: r.where });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { size: 2.7, bytes, engine: 'onnx-wasm in Chromium (File)', browser: results };
}

// onnxruntime-web 1.30 (wasm, 1 thread) in a fresh page of the same profile, where it can load the
// table: the model by URL with its external data given by URL (onnxruntime-web fetches it whole
// into its wasm memory on every create; it has no cache and no reading by rows). The same 512-row
// runs, checked the same way; or the error it gives.
async function ortCase(b, rows, { random, check, firstIndices: first }) {
  const p = await b.ortPage();
  try {
    const c = await p.evaluate(`ortCreate('model.onnx', [{ path: 'table.bin', data: 'table.bin' }])`);
    if (c.error) {
      console.log(`  onnxruntime-web ${c.version}: create failed after ${c.ms.toFixed(0)} ms: ${c.error}`);
      return { error: c.error, createMs: c.ms };
    }
    const ortRun = (idx) => p.evaluate(`ortRun(${JSON.stringify(idx)}, { name: 'indices', cols: ${COLS} })`);
    const idx0 = first();
    const r = await ortRun(idx0);
    check('onnxruntime-web', idx0, r);
    const times = [];
    for (let k = 0; k < 20; ++k) {
      const idx = random();
      const q = await ortRun(idx);
      check('onnxruntime-web', idx, q);
      times.push(q.ms);
    }
    times.sort((a, b) => a - b);
    console.log(`  onnxruntime-web ${c.version} (wasm, 1 thread), table fetched by URL: create ${c.ms.toFixed(0)} ms (on every visit), first run ${r.ms.toFixed(1)} ms, median run ${times[10].toFixed(2)} ms (rows right)`);
    return { createMs: c.ms, firstMs: r.ms, medianMs: times[10] };
  } catch (e) {
    console.log(`  onnxruntime-web: ${e.message.split('\n')[0]}`);
    return { error: e.message };
  } finally {
    await p.close().catch(() => {});
  }
}

// Chromium with a disk-backed temporary profile (bench/opfs-browser.mjs): the table downloaded
// into OPFS (first visit), then read from there by main-thread and worker sessions, and from a
// File as before.
async function opfsCase(dir, rows, bytes) {
  const { openOpfsBrowser } = await import('./opfs-browser.mjs');
  const b = await openOpfsBrowser(dir);
  const out = { size: bytes, engine: 'onnx-wasm in Chromium (OPFS)', version: b.version };
  let x = 777;
  const random = () => Array.from({ length: 512 }, () => { x = (x * 1103515245 + 12345) % 2147483648; return x % rows; });
  const check = (label, idx, r) => {
    if (r.error) throw new Error(`${label}: ${r.error}: ${r.message}`);
    const bad = idx.findIndex((i, k) => { const q = i < 0 ? i + rows : i; return r.rows[k][0] !== expected(q, 0) || r.rows[k][1] !== expected(q, COLS - 1); });
    if (bad >= 0) throw new Error(`${label}: row ${bad} is wrong`);
  };
  const { page, call } = b;
  // first and median (20 runs) of 512 rows
  const runs = async (p, where, id, label) => {
    const first = firstIndices(rows);
    const r = await call(p, where, 'timedRun', id, first, COLS);
    check(label, first, r);
    const times = [];
    for (let k = 0; k < 20; ++k) {
      const idx = random();
      const q = await call(p, where, 'timedRun', id, idx, COLS);
      check(label, idx, q);
      times.push(q.ms);
    }
    times.sort((a, b) => a - b);
    return { firstMs: r.ms, medianMs: times[10] };
  };
  const gb = (bytes / 1e9).toFixed(2);
  const runsOf = { random, check, firstIndices: () => firstIndices(rows) };
  try {
    const p1 = await page();
    const first = await call(p1, 'main', 'timedCreate', 'model.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
    if (first.error) throw new Error(`first visit: ${first.error}: ${first.message}`);
    out.firstVisitMs = first.ms;
    console.log(`Chromium ${out.version}, OPFS, ${gb} GB: first visit create ${(first.ms / 1000).toFixed(1)} s (${(bytes / 1e6 / (first.ms / 1000)).toFixed(0)} MB/s, download into OPFS)`);
    await p1.close();
    // Each kind of session in two later visits, taken in turn (main, worker, main, worker): the
    // first page after the download also met the browser finishing that 2.76 GB write.
    for (const visit of [1, 2]) {
      for (const where of ['main', 'worker']) {
        const p = await page();
        const c = await call(p, where, 'timedCreate', 'model.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
        if (c.error) throw new Error(`cached create (${where}): ${c.error}: ${c.message}`);
        const r = await runs(p, where, c.id, `OPFS ${where}`);
        (out[where] ??= { visits: [] }).visits.push({ cachedCreateMs: c.ms, ...r });
        console.log(`  visit ${visit}, ${where === 'main' ? 'main-thread' : 'worker     '} session: cached create ${c.ms.toFixed(1)} ms, first run ${r.firstMs.toFixed(1)} ms, median run ${r.medianMs.toFixed(2)} ms (512 rows, rows right)`);
        await p.close();
      }
    }
    const p = await page();
    await p.setInputFiles('#table', join(dir, 'table.bin'));
    const f = await p.evaluate(`(async () => t.main.timedCreate(await t.main.modelBytes('model.onnx'), { externalDataMode: 'lazy', externalData: [{ path: 'table.bin', data: picked() }] }))()`);
    if (f.error) throw new Error(`File: ${f.error}: ${f.message}`);
    out.file = { createMs: f.ms, ...(await runs(p, 'main', f.id, 'File')) };
    console.log(`  a File kept as before (main thread): create ${f.ms.toFixed(1)} ms, first run ${out.file.firstMs.toFixed(1)} ms, median run ${out.file.medianMs.toFixed(2)} ms`);
    await p.close();
    out.peakRssMB = b.peak();
    console.log(`  Chromium peak RSS (all its processes), onnx-wasm's pages: ${out.peakRssMB.toFixed(0)} MB`);
    b.resetPeak();
    out.ort = await ortCase(b, rows, runsOf);
    out.ort.peakRssMB = b.peak();
    console.log(`  Chromium peak RSS (all its processes), onnxruntime-web's page: ${out.ort.peakRssMB.toFixed(0)} MB`);

  } finally {
    await b.close();
  }
  return out;
}

await main();
