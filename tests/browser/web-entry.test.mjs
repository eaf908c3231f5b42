// The one-file browser entries (issue 13), dist/onnx-wasm.web.mjs ('onnx-wasm/web') and
// dist/onnx-wasm-threads.web.mjs ('onnx-wasm/web-threads'), in Chromium: a page loads one module
// and one .wasm (fetched when the module is evaluated, compiled while it streams) and nothing else
// before its first result; the threads entry runs the threads build with its workers in a
// cross-origin isolated page and falls back to the one-thread build elsewhere.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, repo, serveDir, watchPage } from './support.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-web-entry-'));
let browser, plain, isolated;

const page = (entry) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
import { init, Tensor, runNode, runtime } from '${entry}';
try {
  const info = await init();
  const [g] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]), new Tensor('int64', [2n, -3n], [2])], { opset: 13 });
  const requested = performance.getEntriesByType('resource').map((e) => e.name.split('/').slice(-2).join('/'));
  for (let i = 0; i < 200 && info.threads > 1 && !runtime().threadsActive; ++i) await new Promise((r) => setTimeout(r, 50));
  document.body.dataset.result = JSON.stringify({ gather: Array.from(g.data), module: info.module, loadedFrom: info.loadedFrom, requested, threadsActive: runtime().threadsActive });
} catch (e) {
  document.body.dataset.result = JSON.stringify({ error: String(e?.stack ?? e) });
}
</script>`;

before(async () => {
  symlinkSync(join(repo, 'dist'), join(tmp, 'dist'));
  writeFileSync(join(tmp, 'web.html'), page('./dist/onnx-wasm.web.mjs'));
  writeFileSync(join(tmp, 'web-threads.html'), page('./dist/onnx-wasm-threads.web.mjs'));
  plain = await serveDir(tmp);
  isolated = await serveDir(tmp, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await plain?.close();
  await isolated?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function open(url) {
  const context = await browser.newContext();
  const p = await context.newPage();
  const problems = watchPage(p);
  await p.goto(url);
  await p.waitForFunction(() => document.body?.dataset.result, null, { timeout: 20000 });
  const r = JSON.parse(await p.evaluate(() => document.body.dataset.result));
  await context.close();
  assert.equal(r.error, undefined, r.error);
  assert.deepEqual(problems, []);
  assert.deepEqual(r.gather, [5, 6, 1, 2]);
  return r;
}

test('onnx-wasm/web: one module and one .wasm, fetched at import and compiled while streaming', async () => {
  const r = await open(`${plain.url}web.html`);
  assert.equal(r.module, 'onnx-wasm');
  assert.match(r.loadedFrom, /dist\/onnx-wasm\.wasm \(streamed, fetched at import\)$/);
  assert.deepEqual(r.requested, ['dist/onnx-wasm.web.mjs', 'dist/onnx-wasm.wasm']);
});

test('onnx-wasm/web keeps to one thread in a cross-origin isolated page', async () => {
  const r = await open(`${isolated.url}web.html`);
  assert.equal(r.module, 'onnx-wasm');
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
