// The OPFS cache and row reader (issue 22) in Chromium with a disk-backed (persistent) profile and
// in Firefox ESR, each case run in both: a first visit, then a later page with the data's server
// gone; a download cut mid-way and resumed, checked byte for byte; a quota error (a stubbed
// storage estimate, and in Chromium a real one mid-download, the origin's quota overridden over
// CDP: the partial file removed, or kept with keepPartial and resumed); a cached file removed under a session; two pages at once; modelCache listing
// and deletion, and cacheKey; a File copied in; OPFS missing; the one-file bundle under a strict CSP;
// a worker session's read of over a thousand runs; GatherBlockQuantized's codes and scales kept,
// and with cacheRowLayout;
// and lookups from worker and
// main-thread sessions checked against the in-memory Gather for every Gather table type external
// data can hold. Tables of a few MB; expected rows come from the table's bytes in Node.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { init, InferenceSession, Tensor } from '../../js/index.mjs';
import { gatherBlockQuantizedBytes, gatherBlockQuantizedModel, gatherModel, tableBytes } from '../support/external-models.mjs';
import { allowedAt } from '../support/onnx-spec.mjs';
import { serveFiles } from '../support/file-server.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH, repo } from './support.mjs';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const rows = 4096, dims = [rows, 256];   // float32: 4 MiB
const table = tableBytes('float32', dims);
const rowBytes = table.length / rows;
const indices = [0, rows - 1, -1, 5, 6, 7, 5, 2048, -rows];
const rowsOf = (bytes, n, idx) => idx.flatMap((i) => { const r = (i + n) % n, b = bytes.length / n; return Array.from(bytes.subarray(r * b, (r + 1) * b)); });
const types = [...allowedAt('Gather', 13)].filter((t) => t !== 'string');
// Every row of the table, read back as base64, and compared byte for byte, naming the first byte
// that differs. (As an array of 4,194,304 numbers, the WebDriver BiDi result is an IPC message too
// large for Firefox ESR 153, which ends the page's process: tests/browser/firefox-crash-repro/.)
const allRows = Array.from({ length: rows }, (_, i) => i);
const assertAllRows = (r, expected) => {
  assert.equal(r.error, undefined, r.message);
  const got = Buffer.from(r.bytes, 'base64');
  const first = got.findIndex((b, i) => b !== expected[i]);
  assert.ok(got.length === expected.length && first === -1, `${got.length} bytes of ${expected.length}; the first that differs: ${first}`);
};

const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-opfs-'));
cpSync(join(repo, 'tests/browser/opfs-page'), tmp, { recursive: true });
symlinkSync(join(repo, 'js'), join(tmp, 'js'));
symlinkSync(join(repo, 'dist'), join(tmp, 'dist'));
const model = gatherModel({ dims });
writeFileSync(join(tmp, 'table.bin'), table);
writeFileSync(join(tmp, 'table-copy.bin'), table);
// Models that differ only in their URL (so that each case starts with nothing cached).
for (const name of ['first', 'cut', 'quota', 'quota-real', 'quota-keep', 'removed', 'two', 'list', 'file', 'none', 'many']) writeFileSync(join(tmp, `${name}.onnx`), model);
writeFileSync(join(tmp, 'changed.onnx'), gatherModel({ dims, location: 'changing.bin' }));
for (const type of types) {
  writeFileSync(join(tmp, `type-${type}.onnx`), gatherModel({ type, dims: [37, 3, 2], location: `type-${type}.bin` }));
  writeFileSync(join(tmp, `type-${type}.bin`), tableBytes(type, [37, 3, 2]));
}
// A quantized embedding table (issue 30): GatherBlockQuantized of 4-bit codes (uint8 [8192, 256],
// 2 MiB, kept in OPFS and read by rows) and float16 scales [8192, 16] (block 32, taken in memory
// at the rows read), both in gbq.bin. Expected outputs from onnx-wasm in Node, the table in memory
// (tests/js/gather-block-quantized.test.mjs checks that one against onnxruntime-node).
const gbq = { rows: 8192, cols: 512, block: 32, bits: 4 };
const gbqIds = [[0, 8191, -1, 5, 6, 7, 5, 4096], [-8192, 100, 101, 102, 3, 3, 8000, 1]];
writeFileSync(join(tmp, 'gbq.onnx'), gatherBlockQuantizedModel({ ...gbq, location: 'gbq.bin' }));
writeFileSync(join(tmp, 'gbq.bin'), gatherBlockQuantizedBytes(gbq));
// The same model at other URLs (fresh entries) for cacheRowLayout: the codes and scales of a row
// side by side in a second file of the entry.
const gbqModel = gatherBlockQuantizedModel({ ...gbq, location: 'gbq.bin' });
for (const name of ['worker', 'main', 'quota']) writeFileSync(join(tmp, `gbq-rows-${name}.onnx`), gbqModel);
const gbqFile = gatherBlockQuantizedBytes(gbq).length;   // codes 8192 x 256, then scales 8192 x 16 x 2
await init({ threads: false });
const gbqExpected = await (async () => {
  const s = await InferenceSession.create(gatherBlockQuantizedModel({ ...gbq, location: 'gbq.bin' }), { externalData: { 'gbq.bin': gatherBlockQuantizedBytes(gbq) } });
  const { out } = await s.run({ ids: new Tensor('int64', gbqIds.flat().map(BigInt), [2, 8]) });
  const r = { type: out.type, dims: out.dims, bytes: Array.from(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength)) };
  out.dispose();
  await s.release();
  return r;
})();
after(() => rmSync(tmp, { recursive: true, force: true }));

// Each browser: open() -> { newPage(), close(), version, setQuota(page, bytes | null) or null }.
// Chromium keeps its profile (and OPFS) on disk; Firefox's puppeteer profile is a temporary
// folder on disk as well. Chromium's origin quota can be set over CDP (Storage.overrideQuotaForOrigin:
// OPFS writes beyond it fail with QuotaExceededError; navigator.storage.estimate() does not show it).
const browsers = [
  ['Chromium (persistent profile)', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'onnx-wasm-opfs-profile-'));
    const ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    // (the override lasts as long as the CDP session that set it: kept until the quota is reset)
    let cdp = null;
    const setQuota = async (page, origin, bytes) => {
      cdp ??= await ctx.newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, ...(bytes === null ? {} : { quotaSize: bytes }) });
      if (bytes === null) { await cdp.detach().catch(() => {}); cdp = null; }
    };
    return { newPage: () => ctx.newPage(), version: ctx.browser()?.version() ?? 'chromium', setQuota, close: async () => { await ctx.close(); rmSync(profile, { recursive: true, force: true }); } };
  }],
  ['Firefox ESR', async () => {
    const b = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi', dumpio: !!process.env.DUMPIO });
    return { newPage: () => b.newPage(), version: await b.version(), setQuota: null, close: () => b.close() };
  }],
];

for (const [browserName, open] of browsers) {
  describe(browserName, () => {
    let browser, server, page;
    const problems = [];
    const newPage = async () => {
      const p = await browser.newPage();
      p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await p.goto(server.url);
      await p.waitForFunction(() => document.body.dataset.ready === '1');
      return p;
    };
    const call = (p, where, name, ...args) => p.evaluate(`t.${where}.${name}(...${JSON.stringify(args)})`);
    const requestsFor = (path) => server.requests.filter((r) => r.path === path);
    before(async () => {
      server = await serveFiles(tmp);
      browser = await open();
      page = await newPage();
      assert.equal(await call(page, 'main', 'clear'), true);
      await page.close();
    });
    // A fresh page for each case (a crashed tab would take only its own case down).
    beforeEach(async () => { page = await newPage(); });
    afterEach(async () => { await page?.close().catch(() => {}); });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test('a first visit (progress, stored) and a later page with the data server gone (no request), from worker and main thread', async () => {
      const c = await call(page, 'main', 'create', 'first.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      assert.equal(c.error, undefined, c.message);
      assert.deepEqual(c.info, { type: 'float32', dims, storage: 'file', location: 'table.bin', bytes: table.length });
      const total = model.length + table.length;
      assert.deepEqual(c.events.at(-1), { loaded: total, total });
      const r = await call(page, 'main', 'run', c.id, indices);
      assert.deepEqual(r.bytes, rowsOf(table, rows, indices));
      const entries = (await call(page, 'main', 'entries')).filter((e) => e.url.endsWith('/first.onnx'));
      assert.deepEqual(entries.map((e) => [e.bytes, e.complete]), [[total, true]]);
      // A later page: the data paths are refused, and nothing is asked for.
      server.set({ refuse: /\.(onnx|bin)$/ });
      server.requests.length = 0;
      const later = await newPage();
      try {
        for (const where of ['main', 'worker']) {
          const d = await call(later, where, 'create', 'first.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
          assert.equal(d.error, undefined, `${where}: ${d.message}`);
          assert.equal(d.info.storage, 'file');
          assert.deepEqual((await call(later, where, 'run', d.id, indices)).bytes, rowsOf(table, rows, indices), where);
          await call(later, where, 'release', d.id);
        }
        assert.deepEqual(server.requests.filter((x) => /\.(onnx|bin)$/.test(x.path)), []);
      } finally {
        server.set({ refuse: null });
        await later.close();
      }
      await call(page, 'main', 'release', c.id);
    });

    // Five cut tries of at most 300,000 bytes: at most 1,500,000 bytes kept. A reset can drop
    // bytes the server wrote but the page had not read yet (an errored stream discards its
    // queue), so a case takes the count the error states and checks the rest against it.
    const keptAfterCuts = (message, pattern) => {
      const m = pattern.exec(message);
      assert.ok(m, message);
      const kept = Number(m[1]);
      assert.ok(kept > 0 && kept <= 1500000, `${kept} bytes kept`);
      return kept;
    };
    test('a download cut mid-way fails ("ended after"), keeps its bytes, and the next create resumes from them (Range), byte for byte', async () => {
      server.set({ cuts: 5, cutAfter: 300000, how: 'reset' });
      server.requests.length = 0;
      const c = await call(page, 'main', 'create', 'cut.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      server.set({ cuts: 0 });
      assert.equal(c.error, 'ExternalDataError');
      const kept = keptAfterCuts(c.message, /table 'table' \('table\.bin'\): the download of http:\S+\/table\.bin ended after (\d+) of 4194304 bytes/);
      const e = (await call(page, 'main', 'entries')).find((x) => x.url.endsWith('/cut.onnx'));
      assert.equal(e.complete, false);
      assert.deepEqual(e.files.find((f) => f.name === 'table.bin'), { name: 'table.bin', bytes: kept, complete: false });
      server.requests.length = 0;
      const d = await call(page, 'worker', 'create', 'cut.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      assert.equal(d.error, undefined, d.message);
      assert.deepEqual(requestsFor('/table.bin').map((x) => x.range), [`bytes=${kept}-`]);
      assertAllRows(await call(page, 'worker', 'run', d.id, allRows, [allRows.length], { base64: true }), table);
      await call(page, 'worker', 'release', d.id);
    });

    test('a file changed on the server between two visits: the resumed download (If-Range) starts over, and the rows are the new file\'s', async () => {
      writeFileSync(join(tmp, 'changing.bin'), table);
      server.set({ cuts: 5, cutAfter: 300000, how: 'reset' });
      const c = await call(page, 'main', 'create', 'changed.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      server.set({ cuts: 0 });
      assert.equal(c.error, 'ExternalDataError');
      const kept = keptAfterCuts(c.message, /ended after (\d+) of 4194304 bytes/);
      // The same size, other bytes, a later date: another ETag.
      const changed = Uint8Array.from(table, (b, i) => (b + i + 1) & 255);
      writeFileSync(join(tmp, 'changing.bin'), changed);
      utimesSync(join(tmp, 'changing.bin'), new Date(), new Date(Date.now() + 60000));
      server.requests.length = 0;
      const d = await call(page, 'worker', 'create', 'changed.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      assert.equal(d.error, undefined, d.message);
      assert.deepEqual(requestsFor('/changing.bin').map((x) => [x.range, x.ifRange !== null]), [[`bytes=${kept}-`, true], ['bytes=0-', false]]);
      assertAllRows(await call(page, 'worker', 'run', d.id, allRows, [allRows.length], { base64: true }), changed);
      await call(page, 'worker', 'release', d.id);
    });

    test('a quota too small: ExternalDataError naming the table and the bytes, nothing written; then it works', async () => {
      await page.evaluate(`(() => { const real = navigator.storage.estimate.bind(navigator.storage); window.realEstimate = real;
        navigator.storage.estimate = async () => ({ quota: 1000000, usage: 0 }); })()`);
      const c = await call(page, 'main', 'create', 'quota.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      await page.evaluate('navigator.storage.estimate = window.realEstimate');
      assert.equal(c.error, 'ExternalDataError');
      assert.match(c.message, /^table 'table' \('table\.bin'\): keeping it in the origin private file system needs 4194304 more bytes \(4\.2 MB in all, 0 stored\), and the storage quota leaves 1000000; nothing was written$/);
      const e = (await call(page, 'main', 'entries')).find((x) => x.url.endsWith('/quota.onnx'));
      assert.deepEqual(e.files.filter((f) => f.name === 'table.bin'), []);
      const d = await call(page, 'main', 'create', 'quota.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      assert.equal(d.error, undefined, d.message);
      assert.deepEqual((await call(page, 'main', 'run', d.id, indices)).bytes, rowsOf(table, rows, indices));
      await call(page, 'main', 'release', d.id);
    });

    test('a real quota error mid-download: the partial file removed, or kept with keepPartial and resumed once there is room', async (t) => {
      if (!browser.setQuota) { t.skip("no way to set Firefox's storage quota from the test (WebDriver BiDi has none)"); return; }
      // The override holds for an origin whose storage was not opened before it: this case runs on
      // http://localhost:<port>/, the same server under another origin than 127.0.0.1.
      const url = server.url.replace('127.0.0.1', 'localhost');
      const origin = new URL(url).origin;
      await page.close();
      page = await browser.newPage();
      await browser.setQuota(page, origin, 2 * 2 ** 20);   // room for the model and part of the table
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.ready === '1');
      const table4 = (url) => async () => (await call(page, 'main', 'entries')).find((x) => x.url.endsWith(url))?.files.find((f) => f.name === 'table.bin');
      try {
        const c = await call(page, 'main', 'create', 'quota-real.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
        assert.equal(c.error, 'ExternalDataError');
        assert.match(c.message, /^table 'table' \('table\.bin'\): the storage quota ran out after \d+ of 4194304 bytes; the partial file was removed \(keepPartial keeps it for resuming\)/);
        assert.equal(await table4('/quota-real.onnx')(), undefined, 'nothing half-written is left');
        // (Chromium gives back the quota of a file removed a moment later: the first write of the
        // next table may find none yet and store nothing. Then a second create, resuming from the
        // nothing kept, stores what fits.)
        let k;
        for (let attempt = 0; attempt < 5; ++attempt) {
          k = await call(page, 'main', 'create', 'quota-keep.onnx', { cache: 'opfs', externalDataMode: 'lazy', keepPartial: true });
          if (!/ran out after 0 of|ran out before the download began|the model \S+: the storage quota ran out/.test(k.message ?? '')) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        assert.equal(k.error, 'ExternalDataError');
        assert.match(k.message, /^table 'table' \('table\.bin'\): the storage quota ran out after \d+ of 4194304 bytes; the bytes stored are kept \(keepPartial\), and the next create\(\) resumes from them once there is room/);
        const stored = Number(/after (\d+) of/.exec(k.message)[1]);
        assert.ok(stored > 0 && stored < table.length, `stored ${stored}`);
        await browser.setQuota(page, origin, null);
        assert.deepEqual(await table4('/quota-keep.onnx')(), { name: 'table.bin', bytes: stored, complete: false });
        server.requests.length = 0;
        const d = await call(page, 'worker', 'create', 'quota-keep.onnx', { cache: 'opfs', externalDataMode: 'lazy', keepPartial: true });
        assert.equal(d.error, undefined, d.message);
        assert.deepEqual(requestsFor('/table.bin').map((x) => x.range), [`bytes=${stored}-`]);
        assertAllRows(await call(page, 'worker', 'run', d.id, allRows, [allRows.length], { base64: true }), table);
        await call(page, 'worker', 'release', d.id);
      } finally {
        await browser.setQuota(page, origin, null);
      }
    });

    for (const where of ['main', 'worker']) {
      test(`a cached file removed under a ${where}-thread session: the run fails with ExternalDataError, nothing partial; the module keeps working`, async () => {
        const c = await call(page, where, 'create', 'removed.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
        assert.equal(c.error, undefined, c.message);
        assert.deepEqual((await call(page, where, 'run', c.id, indices)).bytes, rowsOf(table, rows, indices));
        assert.equal(await call(page, where, 'delete', 'removed.onnx'), true);
        const r = await call(page, where, 'run', c.id, indices);
        assert.equal(r.error, 'ExternalDataError');
        assert.match(r.message, /^table 'table' \(4\.2 MB\) is kept in 'table\.bin', which cannot be read: /);
        assert.equal(r.bytes, undefined);
        const d = await call(page, where, 'create', 'removed.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
        assert.equal(d.error, undefined, d.message);
        assert.deepEqual((await call(page, where, 'run', d.id, indices)).bytes, rowsOf(table, rows, indices));
        await call(page, where, 'release', c.id);
        await call(page, where, 'release', d.id);
      });
    }

    test('two pages open the same model at once: both work, the table is downloaded once', async () => {
      const other = await newPage();
      try {
        server.requests.length = 0;
        const [a, b] = await Promise.all([call(page, 'main', 'create', 'two.onnx', { cache: 'opfs', externalDataMode: 'lazy' }),
          call(other, 'worker', 'create', 'two.onnx', { cache: 'opfs', externalDataMode: 'lazy' })]);
        assert.equal(a.error, undefined, a.message);
        assert.equal(b.error, undefined, b.message);
        assert.equal(requestsFor('/table.bin').length, 1);
        const [ra, rb] = await Promise.all([call(page, 'main', 'run', a.id, indices), call(other, 'worker', 'run', b.id, indices)]);
        assert.deepEqual(ra.bytes, rowsOf(table, rows, indices));
        assert.deepEqual(rb.bytes, rowsOf(table, rows, indices));
        await call(page, 'main', 'release', a.id);
      } finally {
        await other.close();
      }
    });

    test('modelCache: entries, delete, cacheKey (another key downloads again), clear; without cache nothing is stored', async () => {
      assert.equal(await call(page, 'main', 'clear'), true);
      assert.deepEqual(await call(page, 'main', 'entries'), []);
      const none = await call(page, 'main', 'create', 'none.onnx', {});
      assert.equal(none.info.storage, 'memory');
      assert.deepEqual(await call(page, 'main', 'entries'), []);
      server.requests.length = 0;
      for (const cacheKey of ['v1', 'v1', 'v2']) {
        const c = await call(page, 'main', 'create', 'list.onnx', { cache: 'opfs', cacheKey });
        assert.equal(c.error, undefined, c.message);
      }
      assert.equal(requestsFor('/table.bin').length, 2);
      const listed = await call(page, 'main', 'entries');
      assert.deepEqual(listed.map((e) => [e.url, e.cacheKey, e.bytes, e.complete]).sort(), [
        [`${server.url}list.onnx`, 'v1', model.length + table.length, true], [`${server.url}list.onnx`, 'v2', model.length + table.length, true]]);
      assert.equal(await call(page, 'main', 'delete', 'list.onnx', { cacheKey: 'v1' }), true);
      assert.equal(await call(page, 'main', 'delete', 'list.onnx', { cacheKey: 'v1' }), false);
      assert.deepEqual((await call(page, 'main', 'entries')).map((e) => e.cacheKey), ['v2']);
      assert.equal(await call(page, 'main', 'clear'), true);
      assert.deepEqual(await call(page, 'main', 'entries'), []);
    });

    test('a File the user picked, copied into OPFS (cache: opfs): kept there, listed, rows right', async () => {
      if (page.setInputFiles) await page.setInputFiles('#table', join(tmp, 'table-copy.bin'));   // playwright
      else await (await page.$('#table')).uploadFile(join(tmp, 'table-copy.bin'));               // puppeteer
      const c = await page.evaluate(`(async () => t.main.create(await t.main.modelBytes('file.onnx'), { cache: 'opfs', externalDataMode: 'lazy', externalData: [{ path: 'table.bin', data: picked() }] }))()`);
      assert.equal(c.error, undefined, c.message);
      assert.equal(c.info.storage, 'file');
      assert.deepEqual((await call(page, 'main', 'run', c.id, indices)).bytes, rowsOf(table, rows, indices));
      const e = (await call(page, 'main', 'entries')).find((x) => x.url === 'file:table-copy.bin');
      assert.deepEqual([e.bytes, e.complete], [table.length, true]);
      await call(page, 'main', 'release', c.id);
      // Deleted as entries() lists it ('file:<name>' is no URL: read as one, it named another entry).
      assert.equal(await call(page, 'main', 'delete', e.url, { cacheKey: e.cacheKey }), true);
      assert.equal((await call(page, 'main', 'entries')).find((x) => x.url === 'file:table-copy.bin'), undefined);
    });

    test('OPFS missing: create({ cache: opfs }) says so; without cache the package works as before', async () => {
      await page.evaluate('window.realGetDirectory = navigator.storage.getDirectory; navigator.storage.getDirectory = async () => { throw new DOMException("denied", "SecurityError"); }');
      try {
        const c = await call(page, 'main', 'create', 'none.onnx', { cache: 'opfs' });
        assert.equal(c.error, 'ExternalDataError');
        assert.match(c.message, /^the model cache \(options\.cache 'opfs'\) needs the origin private file system: the browser refuses it here \(SecurityError: denied/);
        const d = await call(page, 'main', 'create', 'none.onnx', {});
        assert.equal(d.error, undefined, d.message);
      } finally {
        await page.evaluate('navigator.storage.getDirectory = window.realGetDirectory');
      }
    });

    for (const where of ['worker', 'main']) {
      test(`every Gather table type, kept in OPFS and read from a ${where}-thread session: the in-memory Gather's bytes and errors`, async () => {
        for (const type of types) {
          const idx = [36, 0, 1, 2, -1, 17, 17, 18];
          const kept = await call(page, where, 'create', `type-${type}.onnx`, { cache: 'opfs', externalDataMode: 'lazy' });
          const memory = await call(page, where, 'create', `type-${type}.onnx`, { externalDataMode: 'memory' });
          assert.equal(kept.error, undefined, `${type}: ${kept.message}`);
          assert.equal(kept.info.storage, 'file', type);
          const [a, b] = [await call(page, where, 'run', kept.id, idx), await call(page, where, 'run', memory.id, idx)];
          assert.deepEqual([a.type, a.dims, a.bytes], [b.type, b.dims, b.bytes], type);
          assert.deepEqual(a.bytes, rowsOf(tableBytes(type, [37, 3, 2]), 37, idx), type);
          const [ea, eb] = [await call(page, where, 'run', kept.id, [3, 37]), await call(page, where, 'run', memory.id, [3, 37])];
          assert.equal(ea.error, 'IndexOutOfRangeError', type);
          assert.deepEqual(ea, eb, type);
          await call(page, where, 'release', kept.id);
          await call(page, where, 'release', memory.id);
        }
      });
    }

    test('rows far apart from a worker-thread session (a read of over a thousand runs): the table\'s bytes, twice, and the out-of-range error', async () => {
      const ids = [...Array.from({ length: 1366 }, (_, i) => 3 * i), -1, -2, 5, 4095, 0];
      const d = await call(page, 'worker', 'create', 'many.onnx', { cache: 'opfs', externalDataMode: 'lazy' });
      assert.equal(d.error, undefined, d.message);
      assert.equal(d.info.storage, 'file');
      const expected = rowsOf(table, rows, ids);
      for (let k = 0; k < 2; ++k) assertAllRows(await call(page, 'worker', 'run', d.id, ids, [ids.length], { base64: true }), expected);
      const ea = await call(page, 'worker', 'run', d.id, [...ids, rows]);
      assert.equal(ea.error, 'IndexOutOfRangeError');
      await call(page, 'worker', 'release', d.id);
    });

    for (const where of ['worker', 'main']) {
      test(`GatherBlockQuantized with its uint8 codes kept in OPFS, read from a ${where}-thread session: onnx-wasm's in-memory bytes in Node and errors`, async () => {
        const kept = await call(page, where, 'create', 'gbq.onnx', { cache: 'opfs', externalDataMode: 'lazy' }, 'data');
        assert.equal(kept.error, undefined, kept.message);
        assert.deepEqual(kept.info, { type: 'uint8', dims: [gbq.rows, 256], storage: 'file', location: 'gbq.bin', bytes: gbq.rows * 256 });
        const memory = await call(page, where, 'create', 'gbq.onnx', { externalDataMode: 'memory' }, 'scales');
        assert.equal(memory.info.storage, 'memory');
        for (const s of [kept, memory]) {
          const r = await call(page, where, 'run', s.id, gbqIds.flat(), [2, 8]);
          assert.equal(r.error, undefined, r.message);
          assert.deepEqual([r.type, r.dims], [gbqExpected.type, gbqExpected.dims]);
          assert.deepEqual(r.bytes, gbqExpected.bytes, s === kept ? 'kept in OPFS' : 'in memory');
        }
        const [ea, eb] = [await call(page, where, 'run', kept.id, [3, gbq.rows], [1, 2]), await call(page, where, 'run', memory.id, [3, gbq.rows], [1, 2])];
        assert.equal(ea.error, 'IndexOutOfRangeError');
        assert.deepEqual(ea, eb);
        await call(page, where, 'release', kept.id);
        await call(page, where, 'release', memory.id);
      });
    }

    for (const where of ['worker', 'main']) {
      test(`GatherBlockQuantized with cacheRowLayout, from a ${where}-thread session: the row layout written once (progress, listed), then runs read a row at a time: the same bytes and errors`, async () => {
        const url = `gbq-rows-${where}.onnx`, options = { cache: 'opfs', externalDataMode: 'lazy', cacheRowLayout: true };
        const a = await call(page, where, 'create', url, options, 'data');
        assert.equal(a.error, undefined, a.message);
        assert.equal(a.info.storage, 'file');
        // (progress: the model, the download, then the row layout: codes and scales once more)
        const total = gbqModel.length + 2 * gbqFile;
        assert.deepEqual(a.events.at(-1), { loaded: total, total });
        const [entry] = (await call(page, where, 'entries')).filter((e) => e.url.endsWith(`/${url}`));
        assert.deepEqual([entry.bytes, entry.complete], [total, true]);
        assert.deepEqual(entry.files.map((f) => [f.name, f.bytes, f.complete]).sort(), [['gbq.bin', gbqFile, true], [`gbq.bin.rows-0x256-${8192 * 256}x32`, gbqFile, true], ['model', gbqModel.length, true]]);
        const b = await call(page, where, 'create', url, options, 'data');
        assert.equal(b.error, undefined, b.message);
        assert.deepEqual(b.events.at(-1), { loaded: gbqModel.length, total: gbqModel.length }, 'a later create writes nothing');
        for (const s of [a, b]) {
          const r = await call(page, where, 'run', s.id, gbqIds.flat(), [2, 8]);
          assert.equal(r.error, undefined, r.message);
          assert.deepEqual([r.type, r.dims], [gbqExpected.type, gbqExpected.dims]);
          assert.deepEqual(r.bytes, gbqExpected.bytes);
          const e = await call(page, where, 'run', s.id, [3, gbq.rows], [1, 2]);
          assert.equal(e.error, 'IndexOutOfRangeError');
        }
        // The runs read the row layout: with the entry removed, its file is the one that fails.
        await call(page, where, 'release', a.id);
        assert.equal(await call(page, where, 'delete', url), true);
        const gone = await call(page, where, 'run', b.id, gbqIds.flat(), [2, 8]);
        assert.equal(gone.error, 'ExternalDataError');
        assert.match(gone.message, /^table 'data', 'scales' \(2\.4 MB\) is kept in 'gbq\.bin \(rows side by side, in the cache\)', which cannot be read: /);
        await call(page, where, 'release', b.id);
      });
    }

    test('cacheRowLayout with too little quota left after the download: ExternalDataError naming the tables and the bytes, nothing written; the download kept; then it works', async () => {
      const url = 'gbq-rows-quota.onnx', options = { cache: 'opfs', externalDataMode: 'lazy', cacheRowLayout: true };
      // (the first estimate, the download's, finds room; the second, the row layout's, does not)
      await page.evaluate(`(() => { window.realEstimate = navigator.storage.estimate.bind(navigator.storage); let n = 0;
        navigator.storage.estimate = async () => (++n === 1 ? { quota: 1e12, usage: 0 } : { quota: 1000000, usage: 0 }); })()`);
      const c = await call(page, 'main', 'create', url, options, 'data');
      await page.evaluate('navigator.storage.estimate = window.realEstimate');
      assert.equal(c.error, 'ExternalDataError');
      assert.equal(c.message, `the row layout of tables 'data', 'scales' (options.cacheRowLayout): keeping it in the origin private file system needs ${gbqFile} more bytes (2.4 MB in all), and the storage quota leaves 1000000; nothing was written`);
      const [entry] = (await call(page, 'main', 'entries')).filter((e) => e.url.endsWith(`/${url}`));
      assert.deepEqual(entry.files.map((f) => [f.name, f.complete]).sort(), [['gbq.bin', true], ['model', true]]);
      for (const o of [{ ...options, cacheRowLayout: false }, options]) {
        const d = await call(page, 'main', 'create', url, o, 'data');
        assert.equal(d.error, undefined, d.message);
        assert.deepEqual((await call(page, 'main', 'run', d.id, gbqIds.flat(), [2, 8])).bytes, gbqExpected.bytes);
        await call(page, 'main', 'release', d.id);
      }
    });

    test("the one-file bundle under a strict CSP (worker-src 'self' blob:): its reader worker serves a main-thread session", async () => {
      const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:";
      const strict = await serveFiles(tmp, { headers: { 'Content-Security-Policy': csp } });
      const p = await browser.newPage();
      const violations = [];
      p.on('console', (m) => { if (/Content.Security.Policy|CSP/i.test(m.text())) violations.push(m.text()); });
      try {
        await p.goto(`${strict.url}bundle.html`);
        await p.waitForFunction(() => document.body.dataset.ready === '1');
        const r = await p.evaluate(`lookup('first.onnx', ${JSON.stringify(indices)})`);
        assert.equal(r.error, undefined, r.message);
        assert.equal(r.storage, 'file');
        assert.deepEqual(r.bytes, rowsOf(table, rows, indices));
        assert.deepEqual(violations, []);
      } finally {
        await p.close();
        await strict.close();
      }
    });

    test('no page errors', () => assert.deepEqual(problems, []));
  });
}
