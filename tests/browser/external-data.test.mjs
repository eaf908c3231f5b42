// External data in Chromium (issue 12): a model created from its URL with its table fetched next
// to it; a table given as a File the user picked (<input type=file>), kept in the File or loaded;
// onnxruntime-web's [{ path, data }] form with an ArrayBuffer and with a URL string; progress
// events; and the same IndexOutOfRangeError text for a kept table as for a loaded one. Rows are
// compared with the table's bytes in Node. A model URL that cannot be fetched (an HTTP error, a
// cross-origin server that sends no CORS header, a server that does not answer) is a ModelError
// that says which, with the OPFS cache as without it. No request is left failed (aborted) after its
// bytes were read.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gatherModel, tableBytes } from '../support/external-models.mjs';
import { launchChromium, repo, serveDir, watchPage } from './support.mjs';

const rows = 300, dims = [rows, 40];
const table = tableBytes('float32', dims);
const indices = [0, rows - 1, -1, 5, 6, 7, 5, 150];
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-external-browser-'));
let browser, server, page, problems;
/** Requests that failed while a case ran (Chromium's DevTools shows them in red: net::ERR_ABORTED). */
const failedRequests = [];
// The page's requests not yet finished or failed, and a promise for the moment there are none
// (a request's end is reported after the page's promise has resolved).
const pending = new Set();
let onSettled = () => {};
const settled = () => (pending.size ? new Promise((resolve) => { onSettled = resolve; }) : Promise.resolve());
const ended = (r) => { pending.delete(r); if (!pending.size) onSettled(); };

function expectedRows() {
  const rowBytes = table.length / rows;
  return indices.flatMap((i) => Array.from(table.subarray(((i + rows) % rows) * rowBytes, (((i + rows) % rows) + 1) * rowBytes)));
}

before(async () => {
  writeFileSync(join(tmp, 'model.onnx'), gatherModel({ dims }));
  writeFileSync(join(tmp, 'table.bin'), table);
  // The package's own js/ and dist/ next to the page (served through links, read in place).
  symlinkSync(join(repo, 'js'), join(tmp, 'js'));
  symlinkSync(join(repo, 'dist'), join(tmp, 'dist'));
  writeFileSync(join(tmp, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><input type="file" id="table">
<script type="module">
import { init, InferenceSession, Tensor } from './js/index.mjs';
await init();
// Creates a session, runs the Gather, returns what Node checks.
window.lookup = async (source, options, indices) => {
  const events = [];
  const s = await InferenceSession.create(source, { ...options, onProgress: (e) => events.push(e) });
  const feed = new Tensor('int64', indices.map(BigInt), [indices.length]);
  try {
    const { out } = await s.run({ indices: feed });
    const bytes = Array.from(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength));
    out.dispose();
    return { info: s.valueInfo('table'), dims: out.dims, bytes, events };
  } catch (e) {
    return { error: e.name, message: e.message };
  } finally {
    feed.dispose();
    await s.release();
  }
};
window.modelBytes = async () => new Uint8Array(await (await fetch('model.onnx')).arrayBuffer());
document.body.dataset.ready = '1';
</script>`);
  server = await serveDir(tmp);
  browser = await launchChromium();
  page = await browser.newPage();
  problems = watchPage(page);
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', ended);
  page.on('requestfailed', (r) => { failedRequests.push(`${r.url()}: ${r.failure()?.errorText}`); ended(r); });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="1"]');
  await page.setInputFiles('#table', join(tmp, 'table.bin'));
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const cases = [
  ['create(url): the table fetched next to the model (auto: loaded)', `(async () => lookup('model.onnx', {}, IDX))()`, 'memory'],
  ['a File the user picked, kept in the File (lazy)', `(async () => lookup(await modelBytes(), { externalDataMode: 'lazy', externalData: [{ path: 'table.bin', data: document.getElementById('table').files[0] }] }, IDX))()`, 'file'],
  ['a File the user picked, loaded (memory)', `(async () => lookup(await modelBytes(), { externalDataMode: 'memory', externalData: [{ path: 'table.bin', data: document.getElementById('table').files[0] }] }, IDX))()`, 'memory'],
  ['[{ path, data: ArrayBuffer }]', `(async () => lookup(await modelBytes(), { externalData: [{ path: 'table.bin', data: await (await fetch('table.bin')).arrayBuffer() }] }, IDX))()`, 'memory'],
  ['[{ path, data: URL string }], lazy asked (a URL is loaded)', `(async () => lookup(await modelBytes(), { externalDataMode: 'lazy', externalData: [{ path: 'table.bin', data: 'table.bin' }] }, IDX))()`, 'memory'],
];
for (const [name, expression, storage] of cases) {
  test(name, async () => {
    failedRequests.length = 0;
    const r = await page.evaluate(expression.replace('IDX', JSON.stringify(indices)));
    await settled();
    assert.equal(r.error, undefined, `${r.error}: ${r.message}`);
    assert.deepEqual(r.info, { type: 'float32', dims, storage, bytes: table.length, ...(storage === 'file' ? { location: 'table.bin' } : {}) });
    assert.deepEqual(r.dims, [indices.length, 40]);
    assert.deepEqual(r.bytes, expectedRows());
    const modelLength = gatherModel({ dims }).length;
    const total = modelLength + (storage === 'memory' ? table.length : 0);
    assert.deepEqual(r.events.at(-1), { loaded: total, total });
    assert.deepEqual(problems, []);
    assert.deepEqual(failedRequests, [], 'no request that loaded its bytes is shown as failed (a body cancelled after its last byte)');
  });
}

test('an index out of range: the same IndexOutOfRangeError for a table kept in a File as for a loaded one', async () => {
  const run = (mode) => page.evaluate(`(async () => lookup(await modelBytes(), { externalDataMode: '${mode}', externalData: [{ path: 'table.bin', data: document.getElementById('table').files[0] }] }, [3, 300]))()`);
  const [lazy, memory] = [await run('lazy'), await run('memory')];
  assert.deepEqual(lazy, { error: 'IndexOutOfRangeError', message: "node 'lookup' (Gather): Gather-13: index 300 at position 1 is outside [-300, 299] for axis 0 of size 300" });
  assert.deepEqual(memory, lazy);
});

test('a model URL that cannot be fetched: a ModelError saying why (HTTP status, CORS refusal, no answer), with the OPFS cache too', async () => {
  // Another origin (another port) serving the same files, without an Access-Control-Allow-Origin
  // header; and a port that nothing listens on.
  const other = await serveDir(tmp);
  const closed = await new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
  });
  const create = (url, options) => page.evaluate(async ([u, o]) => {
    const { InferenceSession } = await import('./js/index.mjs');
    return InferenceSession.create(u, o).then(() => ({ error: null }), (e) => ({ error: e.name, message: e.message }));
  }, [url, options]);
  try {
    const page0 = server.url.replace(/\/$/, '');
    for (const options of [{}, { cache: 'opfs' }]) {
      const why = JSON.stringify(options);
      assert.deepEqual(await create(`${server.url}missing.onnx`, options),
        { error: 'ModelError', message: `cannot fetch the ONNX model at ${server.url}missing.onnx: HTTP 404 Not Found` }, why);
      assert.deepEqual(await create(`${other.url}model.onnx`, options), {
        error: 'ModelError',
        message: `cannot fetch the ONNX model at ${other.url}model.onnx: refused by CORS: ${other.url.replace(/\/$/, '')} answered without an Access-Control-Allow-Origin header that lets this page (${page0}) read it (Failed to fetch)`,
      }, why);
      const gone = `http://127.0.0.1:${closed}/model.onnx`;
      assert.deepEqual(await create(gone, options), {
        error: 'ModelError',
        message: `cannot fetch the ONNX model at ${gone}: the request failed (Failed to fetch): http://127.0.0.1:${closed} did not answer (unreachable, or blocked by the browser)`,
      }, why);
    }
  } finally {
    await other.close();
    await page.evaluate(async () => (await import('./js/index.mjs')).modelCache.clear());
    // (the browser logs each refused request to the console: those are this case's own)
    problems.length = 0;
  }
});

test('a table at a URL whose response ends a moment after its last byte: its request completes, not cancelled (DevTools would show it failed, net::ERR_ABORTED)', async () => {
  // Another origin (CORS allowed) serving the model and its table, each response written whole
  // (chunked), then ended 200 ms later: a reader that cancels the body after the last byte it asked for
  // aborts the request; one that reads on to the end does not.
  const model = gatherModel({ dims });
  const slow = createServer((req, res) => {
    const body = req.url === '/model.onnx' ? model : req.url === '/table.bin' ? table : null;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Range');
    if (req.method === 'OPTIONS' || !body) { res.writeHead(body ? 204 : 404); res.end(); return; }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const from = range ? Number(range[1]) : 0, to = range && range[2] ? Number(range[2]) + 1 : body.length;
    // (no Content-Length: chunked, so that the body ends only with the response)
    res.writeHead(range ? 206 : 200, range ? { 'Content-Range': `bytes ${from}-${to - 1}/${body.length}` } : {});
    res.write(body.subarray(from, to));
    setTimeout(() => res.end(), 200);
  });
  await new Promise((ok) => slow.listen(0, '127.0.0.1', ok));
  try {
    failedRequests.length = 0;
    const url = `http://127.0.0.1:${slow.address().port}/model.onnx`;
    for (const mode of ['memory', 'lazy']) {
      const r = await page.evaluate(`(async () => lookup(${JSON.stringify(url)}, { externalDataMode: '${mode}' }, ${JSON.stringify(indices)}))()`);
      await settled();
      assert.equal(r.error, undefined, `${r.error}: ${r.message}`);
      assert.deepEqual(r.bytes, expectedRows(), mode);
    }
    assert.deepEqual(failedRequests, []);
  } finally {
    await new Promise((ok) => slow.close(ok));
  }
});
