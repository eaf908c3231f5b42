// The one-file browser entries (issue 13), dist/onnx-wasm.web.mjs ('onnx-wasm/web') and
// dist/onnx-wasm-threads.web.mjs ('onnx-wasm/web-threads'), in Chromium: a page loads one module
// and one .wasm (fetched when the module is evaluated, or by init() if the page calls it at once,
// compiled while it streams) and nothing else before its first result; with the README's head
// snippet (preload pair + an inline script compiling the .wasm) the .wasm is fetched once, by the
// snippet, and init({ wasmModule }) takes it. The threads entry runs the threads build with its
// workers in a cross-origin isolated page and falls back to the one-thread build elsewhere.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { headSnippet, launchChromium, repo, serveDir, watchPage } from './support.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-web-entry-'));
let browser, plain, isolated;
const served = [];   // every path either server was asked for

const page = (entry, { head = '', before = '', options = '' } = {}) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${head}
<script type="module">
import { init, Tensor, runNode, runtime, threadsReady } from '${entry}';
try {
  ${before}
  const info = await init(${options});
  const [g] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]), new Tensor('int64', [2n, -3n], [2])], { opset: 13 });
  const requested = performance.getEntriesByType('resource').map((e) => e.name.split('/').slice(-2).join('/'));
  await threadsReady();
  document.body.dataset.result = JSON.stringify({ gather: Array.from(g.data), module: info.module, reason: info.reason, loadedFrom: info.loadedFrom, requested, threadsActive: runtime().threadsActive });
} catch (e) {
  document.body.dataset.result = JSON.stringify({ error: String(e?.stack ?? e) });
}
</script>`;

before(async () => {
  symlinkSync(join(repo, 'dist'), join(tmp, 'dist'));
  writeFileSync(join(tmp, 'web.html'), page('./dist/onnx-wasm.web.mjs'));
  writeFileSync(join(tmp, 'web-later.html'), page('./dist/onnx-wasm.web.mjs', { before: 'await new Promise((r) => setTimeout(r, 50));' }));
  writeFileSync(join(tmp, 'web-threads.html'), page('./dist/onnx-wasm-threads.web.mjs', { before: 'await new Promise((r) => setTimeout(r, 50));' }));
  // The README's head snippet, as a page copies it.
  writeFileSync(join(tmp, 'web-snippet.html'), page('./dist/onnx-wasm.web.mjs', { head: headSnippet('./dist/onnx-wasm.web.mjs', './dist/onnx-wasm.wasm'), options: '{ wasmModule: onnxWasmModule }' }));
  writeFileSync(join(tmp, 'web-threads-snippet.html'), page('./dist/onnx-wasm-threads.web.mjs', { head: headSnippet('./dist/onnx-wasm-threads.web.mjs', './dist/threads/onnx-wasm-threads.wasm'), options: '{ wasmModule: onnxWasmModule }' }));
  plain = await serveDir(tmp, { requests: served });
  isolated = await serveDir(tmp, { isolated: true, requests: served });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await plain?.close();
  await isolated?.close();
  rmSync(tmp, { recursive: true, force: true });
});

// The page's result, and `served`: the paths the server was asked for while the page ran (and
// 300 ms after, for a late duplicate fetch to show up).
async function open(url) {
  served.length = 0;
  const context = await browser.newContext();
  const p = await context.newPage();
  const problems = watchPage(p);
  await p.goto(url);
  await p.waitForFunction(() => document.body?.dataset.result, null, { timeout: 20000 });
  const r = JSON.parse(await p.evaluate(() => document.body.dataset.result));
  await new Promise((ok) => setTimeout(ok, 300));
  r.served = served.filter((path) => !path.endsWith('.html'));
  await context.close();
  assert.equal(r.error, undefined, r.error);
  assert.deepEqual(problems, []);
  assert.deepEqual(r.gather, [5, 6, 1, 2]);
  return r;
}

test('onnx-wasm/web: one module and one .wasm, fetched at import and compiled while streaming', async () => {
  const r = await open(`${plain.url}web-later.html`);
  assert.equal(r.module, 'onnx-wasm');
  assert.match(r.loadedFrom, /dist\/onnx-wasm\.wasm \(streamed, fetched at import\)$/);
  assert.deepEqual(r.requested, ['dist/onnx-wasm.web.mjs', 'dist/onnx-wasm.wasm']);
});

test('onnx-wasm/web with init() called at once: init() fetches the .wasm, once', async () => {
  const r = await open(`${plain.url}web.html`);
  assert.equal(r.module, 'onnx-wasm');
  assert.match(r.loadedFrom, /dist\/onnx-wasm\.wasm \(streamed\)$/);
  assert.deepEqual(r.served, ['/dist/onnx-wasm.web.mjs', '/dist/onnx-wasm.wasm']);
});

test('onnx-wasm/web with the head snippet: init({ wasmModule }) takes the snippet\'s module, the .wasm fetched once', async () => {
  const r = await open(`${plain.url}web-snippet.html`);
  assert.equal(r.module, 'onnx-wasm');
  assert.equal(r.loadedFrom, 'WebAssembly.Module passed by the caller');
  assert.deepEqual(r.served.toSorted(), ['/dist/onnx-wasm.wasm', '/dist/onnx-wasm.web.mjs']);
});

test('onnx-wasm/web-threads with the head snippet, cross-origin isolated: the threads build from the snippet\'s module, workers ready', async () => {
  const r = await open(`${isolated.url}web-threads-snippet.html`);
  assert.equal(r.module, 'onnx-wasm-threads');
  assert.equal(r.loadedFrom, 'WebAssembly.Module passed by the caller');
  assert.deepEqual(r.served.filter((path) => !path.endsWith('.js')).toSorted(), ['/dist/onnx-wasm-threads.web.mjs', '/dist/threads/onnx-wasm-threads.wasm']);
  assert.equal(r.threadsActive, true);
});

test('onnx-wasm/web keeps to one thread in a cross-origin isolated page, and says why', async () => {
  const r = await open(`${isolated.url}web.html`);
  assert.equal(r.module, 'onnx-wasm');
  assert.equal(r.reason, 'wasm SIMD is supported; one thread: the onnx-wasm/web entry keeps to one thread (onnx-wasm/web-threads runs the threads build)');
  assert.deepEqual(r.requested, ['dist/onnx-wasm.web.mjs', 'dist/onnx-wasm.wasm']);
});

test('onnx-wasm/web-threads, cross-origin isolated: the threads build from one module, workers ready', async () => {
  const r = await open(`${isolated.url}web-threads.html`);
  assert.equal(r.module, 'onnx-wasm-threads');
  assert.match(r.loadedFrom, /dist\/threads\/onnx-wasm-threads\.wasm \(streamed, fetched at import\)$/);
  assert.deepEqual(r.requested, ['dist/onnx-wasm-threads.web.mjs', 'threads/onnx-wasm-threads.wasm']);
  assert.equal(r.threadsActive, true);
});

test('onnx-wasm/web-threads in a plain page: the one-thread build (its glue and .wasm fetched then)', async () => {
  const r = await open(`${plain.url}web-threads.html`);
  assert.equal(r.module, 'onnx-wasm');
  assert.match(r.loadedFrom, /dist\/onnx-wasm\.wasm \(streamed\)$/);
});
