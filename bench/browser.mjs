// `npm run bench -- --browser` (or `npm run bench:browser`): the benchmark in headless Chromium.
// 1. First result: fresh pages (a new context each, median of 15, the pages taken in turn so that
//    a slow moment of this shared machine falls on all of them, each round in a new order) timed
//    from navigation start to the first Gather result: an empty page (an inline module script,
//    and one module file), the one-file entries 'onnx-wasm/web' (plain page) and
//    'onnx-wasm/web-threads' (cross-origin isolated), each alone, with the preload pair and with
//    the README's head snippet (the pair and an inline script compiling the .wasm, passed as
//    init({ wasmModule })), the multi-file js/index.mjs, and onnxruntime-web. Each page is timed twice per round: in a Chromium without
//    DevTools instrumentation on the page (bench/chromium-bare.mjs; what a user's browser does)
//    and through playwright (which enables DevTools domains on every page).
// 2. The side-by-side table of bench/models.mjs's cases, onnx-wasm against onnxruntime-web (wasm,
//    1 thread) in one page (bench/browser-page.mjs), outputs compared byte for byte; in Chromium,
//    then the same page in Firefox ESR (puppeteer-core over WebDriver BiDi).
// 3. Cold runs of the tiny case in fresh (cross-origin isolated: finer timer) pages, 7 per engine,
//    each loading that engine alone (bench/browser-cold.mjs).
// A benchmark, not a test: nothing asserts a time. --quick uses reduced sizes; --json out.json.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { headSnippet, launchChromium, preloadPair, serveDir } from '../tests/browser/support.mjs';
import { launchBareChromium } from './chromium-bare.mjs';
import { benchCases, writeCaseFiles } from './models.mjs';
import { median } from './timing.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const dir = mkdtempSync(join(tmpdir(), 'onnx-wasm-bench-browser-'));
const html = (body) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${body}`;

// The served folder: links to dist/, bench/ and onnxruntime-web's files, the cases, the pages.
symlinkSync(join(repo, 'dist'), join(dir, 'dist'));
symlinkSync(join(repo, 'js'), join(dir, 'js'));
symlinkSync(join(repo, 'bench'), join(dir, 'bench'));
symlinkSync(join(repo, 'node_modules/onnxruntime-web/dist'), join(dir, 'ort'));
const cases = benchCases({ small: quick });
for (const c of cases) writeCaseFiles(join(dir, 'cases', c.id), c);
writeFileSync(join(dir, 'bench.html'), html('<script type="module" src="bench/browser-page.mjs"></script>'));
writeFileSync(join(dir, 'cold.html'), html('<script type="module" src="bench/browser-cold.mjs"></script>'));

// First-result pages: the tiny Gather through runNode (as bench/first-result.mjs does in Node), or
// through a session of the tiny model for onnxruntime-web and onnx-wasm's session path. The time
// lands in document.body.dataset.t (read by playwright) and is POSTed to the server (the bare
// Chromium), after it was taken.
const done = "{ const t = String(performance.now()); document.body.dataset.t = t; fetch('/first-result', { method: 'POST', body: t }); }";
const gather = `const [g] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]), new Tensor('int64', [2n, 0n], [2])], { opset: 13 });
if (g.data[0] !== 5) throw new Error('wrong result');`;
const viaRunNode = (entry, head = '', initOptions = '') => html(`${head}<script type="module">
import { init, runNode, Tensor } from '${entry}';
await init(${initOptions});
${gather}
${done}
</script>`);
const pages = {
  empty: html(`<script type="module">${done}</script>`),
  'empty module file': html('<script type="module" src="empty.mjs"></script>'),
  web: viaRunNode('./dist/onnx-wasm.web.mjs'),
  'web+preload': viaRunNode('./dist/onnx-wasm.web.mjs', preloadPair('./dist/onnx-wasm.web.mjs', './dist/onnx-wasm.wasm')),
  'web-threads': viaRunNode('./dist/onnx-wasm-threads.web.mjs'),
  'web-threads+preload': viaRunNode('./dist/onnx-wasm-threads.web.mjs', preloadPair('./dist/onnx-wasm-threads.web.mjs', './dist/threads/onnx-wasm-threads.wasm')),
  'web+snippet': viaRunNode('./dist/onnx-wasm.web.mjs', headSnippet('./dist/onnx-wasm.web.mjs', './dist/onnx-wasm.wasm'), '{ wasmModule: onnxWasmModule }'),
  'web-threads+snippet': viaRunNode('./dist/onnx-wasm-threads.web.mjs', headSnippet('./dist/onnx-wasm-threads.web.mjs', './dist/threads/onnx-wasm-threads.wasm'), '{ wasmModule: onnxWasmModule }'),
  'js/index.mjs': viaRunNode('./js/index.mjs'),
  'web session': html(`<script type="module">
import { InferenceSession, Tensor } from './dist/onnx-wasm.web.mjs';
const s = await InferenceSession.create(new Uint8Array(await (await fetch('cases/tiny/model.onnx')).arrayBuffer()));
const { out } = await s.run({ data: new Tensor('float32', new Float32Array(100), [10, 10]), indices: new Tensor('int64', [1n, 2n, 3n], [3]) });
${done}
</script>`),
  'onnxruntime-web': html(`<script type="module">
import * as ort from './ort/ort.wasm.min.mjs';
ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
const s = await ort.InferenceSession.create(new Uint8Array(await (await fetch('cases/tiny/model.onnx')).arrayBuffer()));
const { out } = await s.run({ data: new ort.Tensor('float32', new Float32Array(100), [10, 10]), indices: new ort.Tensor('int64', BigInt64Array.from([1n, 2n, 3n]), [3]) });
${done}
</script>`),
};
const pageFile = (name) => `first-${name.replace(/[^a-z0-9-]+/gi, '_')}.html`;
writeFileSync(join(dir, 'empty.mjs'), done);
for (const [name, body] of Object.entries(pages)) writeFileSync(join(dir, pageFile(name)), body);

// The bare Chromium's pages report here (one page at a time).
let reported = null;
const onPost = (path, body) => { if (path === '/first-result') reported?.(Number(body)); };
const plain = await serveDir(dir, { onPost });
const isolated = await serveDir(dir, { isolated: true, onPost });
const browser = await launchChromium();
const bare = await launchBareChromium();
const results = { chromium: browser.version(), quick };

// A small seeded generator (mulberry32) and a Fisher-Yates shuffle with it.
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffle(list, random) {
  for (let i = list.length - 1; i > 0; --i) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

async function fresh(url, fn) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url);
    return await fn(page, errors);
  } finally {
    await context.close();
  }
}

try {
  // 1. First result.
  const firstPages = [['empty', plain], ['empty module file', plain], ['web', plain], ['web+preload', plain], ['web+snippet', plain], ['web session', plain], ['js/index.mjs', plain], ['onnxruntime-web', plain],
    ['empty', isolated], ['empty module file', isolated], ['web-threads', isolated], ['web-threads+preload', isolated], ['web-threads+snippet', isolated]];
  const harnesses = {
    bare: (url) => bare.open(url, new Promise((ok) => { reported = ok; })),
    playwright: (url, name) => fresh(url, async (page, errors) => {
      await page.waitForFunction(() => document.body?.dataset.t, null, { timeout: 30000 });
      if (errors.length) throw new Error(`${name}: ${errors.join('; ')}`);
      return Number(await page.evaluate(() => document.body.dataset.t));
    }),
  };
  const times = Object.fromEntries(Object.keys(harnesses).map((h) => [h, firstPages.map(() => [])]));
  // Each round takes the pages in a new order (seeded, so runs are comparable): a page's time
  // can depend on the page before it (several ms in scratch A/Bs), and in a fixed order the
  // isolated empty page, against which the threads entry is read, always came right after
  // onnxruntime-web's page.
  const random = seeded(13);
  for (let k = 0; k < (quick ? 5 : 15); ++k) {
    for (const i of shuffle(firstPages.map((_, j) => j), random)) {
      const [name, server] = firstPages[i];
      for (const [h, open] of Object.entries(harnesses)) times[h][i].push(await open(`${server.url}${pageFile(name)}`, name));
    }
  }
  const first = firstPages.map(([name, server], i) => ({ page: name, isolated: server === isolated,
    ...Object.fromEntries(Object.keys(harnesses).map((h) => [h, { ms: median(times[h][i]) }])) }));
  const row = (page, iso) => first.find((r) => r.page === page && r.isolated === iso);
  for (const h of Object.keys(harnesses)) {
    for (const r of first) {
      r[h].beyondEmpty = r[h].ms - row('empty', r.isolated)[h].ms;
      r[h].beyondEmptyFile = r[h].ms - row('empty module file', r.isolated)[h].ms;
    }
  }
  results.firstResult = { bareChromium: bare.version, rounds: times.bare[0].length, pages: first };
  console.log(`\nFirst result in a fresh page (${bare.version}, localhost; median of ${times.bare[0].length}, ms from navigation start): without DevTools instrumentation | through playwright`);
  const cells = (x, r) => [x.ms.toFixed(1), r.page === 'empty' ? '' : x.beyondEmpty.toFixed(1), r.page.startsWith('empty') ? '' : x.beyondEmptyFile.toFixed(1)];
  console.table(first.map((r) => {
    const [ms, be, bf] = cells(r.bare, r), [pms, pbe, pbf] = cells(r.playwright, r);
    return { page: r.page, isolated: r.isolated ? 'yes' : 'no', ms, 'beyond empty': be, 'beyond empty file': bf, '| playwright ms': pms, 'beyond empty ': pbe, 'beyond empty file ': pbf };
  }));
  // Issue 13's target, read off the table (a report, not a test): the first result at most 40 ms
  // beyond the empty page, for the one-thread and the threads entry with the README's snippet.
  // Absolute times on this shared machine move 2-3x between hours, so the empty page's own time
  // is printed with it: it says how loaded the machine was.
  for (const h of Object.keys(harnesses)) {
    const verdict = (r) => `${r.page} ${r[h].beyondEmpty.toFixed(1)} ms beyond the empty page (${r[h].beyondEmpty <= 40 ? 'holds' : 'misses'}), ${r[h].beyondEmptyFile.toFixed(1)} beyond the empty module file (${r[h].beyondEmptyFile <= 40 ? 'holds' : 'misses'})`;
    console.log(`Target, at most 40 ms beyond the empty page (${h}; empty pages took ${row('empty', false)[h].ms.toFixed(1)} ms plain, ${row('empty', true)[h].ms.toFixed(1)} ms isolated): ${verdict(row('web+snippet', false))}; ${verdict(row('web-threads+snippet', true))}`);
  }

  // 2. Side by side, one page.
  const table = await fresh(`${plain.url}bench.html`, async (page) => {
    await page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30000 });
    const rows = [];
    for (const c of cases) {
      const r = await page.evaluate((id) => window.benchCase(id), c.id);
      rows.push({ id: c.id, case: c.label, ...r });
      console.error(`${c.id}: onnx-wasm ${r.usOurs.toFixed(1)} µs, onnxruntime-web ${r.usOrt.toFixed(1)} µs`);
    }
    return rows;
  });
  results.table = table;
  console.log(`\nSide by side in one Chromium page: onnx-wasm/web (one thread) and onnxruntime-web (wasm, 1 thread)${quick ? ' (QUICK: reduced sizes)' : ''}`);
  console.table(table.map((r) => ({ case: r.case, 'onnx-wasm µs': r.usOurs.toFixed(1), 'ORT-web µs': r.usOrt.toFixed(1), 'vs ORT-web': `${(r.usOrt / r.usOurs).toFixed(1)}x`, identical: r.identical ? 'yes' : 'NO' })));
  if (table.some((r) => !r.identical)) process.exitCode = 1;

  // 2b. The same page in Firefox.
  const firefox = await puppeteer.launch({ browser: 'firefox', executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', headless: true, protocol: 'webDriverBiDi' });
  try {
    const page = await firefox.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${plain.url}bench.html`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    const rows = [];
    for (const c of cases) {
      const r = await page.evaluate((id) => window.benchCase(id), c.id);
      rows.push({ id: c.id, case: c.label, ...r });
      console.error(`Firefox, ${c.id}: onnx-wasm ${r.usOurs.toFixed(1)} µs, onnxruntime-web ${r.usOrt.toFixed(1)} µs`);
    }
    if (errors.length) throw new Error(`Firefox bench page: ${errors.join('; ')}`);
    results.firefox = { version: await firefox.version(), table: rows };
    console.log(`\nSide by side in one Firefox page (${results.firefox.version}): onnx-wasm/web (one thread) and onnxruntime-web (wasm, 1 thread)${quick ? ' (QUICK: reduced sizes)' : ''}`);
    console.table(rows.map((r) => ({ case: r.case, 'onnx-wasm µs': r.usOurs.toFixed(1), 'ORT-web µs': r.usOrt.toFixed(1), 'vs ORT-web': `${(r.usOrt / r.usOurs).toFixed(1)}x`, identical: r.identical ? 'yes' : 'NO' })));
    if (rows.some((r) => !r.identical)) process.exitCode = 1;
  } finally {
    await firefox.close();
  }

  // 3. Cold runs, fresh pages per engine (the engines taken in turn), each figure the median over
  // the pages: one page's run 1 moved from 55 to 1,380 µs between two pages of the same build.
  const engines = ['onnx-wasm', 'onnxruntime-web'];
  const pagesCold = Object.fromEntries(engines.map((e) => [e, []]));
  for (let k = 0; k < (quick ? 3 : 7); ++k) {
    for (const engine of engines) {
      pagesCold[engine].push(await fresh(`${isolated.url}cold.html?engine=${engine}`, async (page, errors) => {
        await page.waitForFunction(() => document.body?.dataset.cold, null, { timeout: 60000 });
        if (errors.length) throw new Error(`cold runs, ${engine}: ${errors.join('; ')}`);
        return JSON.parse(await page.evaluate(() => document.body.dataset.cold));
      }));
    }
  }
  const keys = ['firstUs', 'coldUs', 'coldUsualUs', 'coldMeanUs', 'steadyUs', 'steadyUsualUs', 'steadyBatchUs'];
  const cold = engines.map((engine) => ({ engine, pages: pagesCold[engine].length,
    ...Object.fromEntries(keys.map((key) => [key, median(pagesCold[engine].map((r) => r[key]))])) }));
  results.cold = cold;
  console.log(`\nCold runs of the tiny Gather in fresh cross-origin isolated pages loading one engine (medians over ${cold[0].pages} pages; timer resolution 5 µs): run 1; runs 2 to 50 and 2,000 runs of the steady state, each run timed alone (the median reading, which says little below a few ticks; the mean of the usual readings, those within two ticks of the median; their ratio), and the steady state in batches`);
  console.table(cold.map((r) => ({ engine: r.engine, 'run 1 µs': r.firstUs.toFixed(0), 'runs 2-50: median µs': r.coldUs.toFixed(1), 'usual, mean µs': r.coldUsualUs.toFixed(2), 'all, mean µs': r.coldMeanUs.toFixed(1),
    'steady: median µs': r.steadyUs.toFixed(1), 'usual, mean µs ': r.steadyUsualUs.toFixed(2), 'in batches µs': r.steadyBatchUs.toFixed(2),
    'cold / steady': `${(r.coldUsualUs / r.steadyUsualUs).toFixed(1)}x` })));
} finally {
  await browser.close();
  await bare.close();
  await plain.close();
  await isolated.close();
  rmSync(dir, { recursive: true, force: true });
}
const i = args.indexOf('--json');
if (i >= 0) writeFileSync(args[i + 1], JSON.stringify(results, null, 1));
