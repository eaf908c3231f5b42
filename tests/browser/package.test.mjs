// The npm tarball in real Chromium: installed into an empty folder, then used by a page three
// ways: straight from node_modules through an import map (no bundler), bundled with esbuild (the
// dist/ files copied, found through init({ wasmPaths })), and bundled with Vite (which follows the
// package's `new URL(..., import.meta.url)` and copies the .wasm files itself). Each page runs a
// Gather, a Flatten and a Reshape and reports the module it loaded; each is served plain and
// cross-origin isolated, where the threads build must be chosen.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { artifacts, launchChromium, repo, serveDir, watchPage } from './support.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-browser-'));
const bin = (name) => join(repo, 'node_modules/.bin', name);
let browser;

// The app: the same source for every way of loading; `wasmPaths` only for the esbuild bundle.
const app = (wasmPaths) => `
import { init, Tensor, runNode, runtime, threadsReady } from 'onnx-wasm';
try {
  const info = await init(${wasmPaths ? `{ wasmPaths: ${JSON.stringify(wasmPaths)} }` : ''});
  const data = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
  const [g] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [data, new Tensor('int64', [2n, -3n], [2])], { opset: 13 });
  const [f] = runNode({ opType: 'Flatten', attributes: { axis: 0 } }, [data], { opset: 13 });
  const [r] = runNode({ opType: 'Reshape' }, [data, new Tensor('int64', [-1n, 3n], [2])], { opset: 14 });
  document.body.dataset.result = JSON.stringify({
    gather: { dims: g.dims, data: Array.from(g.data) }, flatten: { dims: f.dims, data: Array.from(f.data) },
    reshape: { dims: r.dims, data: Array.from(r.data) }, module: info.module, reason: info.reason,
    isolated: globalThis.crossOriginIsolated === true,
  });
  // The threads build loads its workers after init(): wait for them.
  await threadsReady();
  document.body.dataset.threadsActive = String(runtime().threadsActive);
} catch (e) {
  document.body.dataset.result = JSON.stringify({ error: String(e && e.stack || e) });
}
`;
const page = (script, importMap) => `<!doctype html><meta charset="utf-8"><title>onnx-wasm package</title><link rel="icon" href="data:,">
${importMap ? `<script type="importmap">${JSON.stringify({ imports: importMap })}</script>` : ''}
<script type="module" src="${script}"></script><body></body>`;

before(() => {
  execFileSync('npm', ['pack', repo, '--pack-destination', tmp, '--silent'], { cwd: tmp, encoding: 'utf8' });
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'browser-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', `./${tgz}`], { cwd: tmp, stdio: 'pipe' });

  // 1. No bundler: an import map points the bare specifier at the package's browser entry.
  mkdirSync(join(tmp, 'plain'));
  writeFileSync(join(tmp, 'plain/app.mjs'), app());
  writeFileSync(join(tmp, 'plain/index.html'), page('./app.mjs', { 'onnx-wasm': '../node_modules/onnx-wasm/js/index.mjs' }));

  // 2. esbuild: one bundle; the package's dist/ files copied next to it.
  mkdirSync(join(tmp, 'esbuild'));
  writeFileSync(join(tmp, 'src-esbuild.mjs'), app('./onnx-wasm/'));
  execFileSync(bin('esbuild'), [join(tmp, 'src-esbuild.mjs'), '--bundle', '--format=esm', '--platform=browser',
    `--outfile=${join(tmp, 'esbuild/app.js')}`, '--log-level=error'], { cwd: tmp, stdio: 'pipe' });
  cpSync(join(tmp, 'node_modules/onnx-wasm/dist'), join(tmp, 'esbuild/onnx-wasm'), { recursive: true });
  writeFileSync(join(tmp, 'esbuild/index.html'), page('./app.js'));

  // 3. Vite: a production build of an index.html that imports the app.
  mkdirSync(join(tmp, 'vite-src'));
  writeFileSync(join(tmp, 'vite-src/main.js'), app());
  writeFileSync(join(tmp, 'vite-src/index.html'), page('./main.js'));
  writeFileSync(join(tmp, 'vite.config.mjs'),
    "export default { root: 'vite-src', logLevel: 'error', build: { outDir: '../vite', emptyOutDir: true, target: 'es2022' } };\n");
  execFileSync(bin('vite'), ['build', '--config', join(tmp, 'vite.config.mjs')], { cwd: tmp, stdio: 'pipe' });
});

before(async () => { browser = await launchChromium(); });
after(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const cases = [];
for (const how of ['plain', 'esbuild', 'vite'])
  for (const isolated of [false, true]) cases.push({ how, isolated });

for (const { how, isolated } of cases) {
  test(`${how} page, ${isolated ? 'cross-origin isolated: threads build' : 'not isolated: one-thread SIMD build'}`, async () => {
    const server = await serveDir(join(tmp, how === 'plain' ? '.' : how), { isolated });
    const tab = await browser.newPage();
    const problems = watchPage(tab);
    try {
      await tab.goto(`${server.url}${how === 'plain' ? 'plain/' : ''}`);
      await tab.waitForFunction(() => document.body.dataset.result, null, { timeout: 20000 });
      await tab.waitForFunction(() => document.body.dataset.threadsActive, null, { timeout: 20000 });
      const r = JSON.parse(await tab.evaluate(() => document.body.dataset.result));
      const threadsActive = await tab.evaluate(() => document.body.dataset.threadsActive);
      await tab.screenshot({ path: join(artifacts, `package-${how}-${isolated ? 'isolated' : 'plain'}.png`) });
      assert.equal(r.error, undefined, r.error);
      assert.deepEqual(r.gather, { dims: [2, 2], data: [5, 6, 1, 2] });
      assert.deepEqual(r.flatten, { dims: [1, 6], data: [1, 2, 3, 4, 5, 6] });
      assert.deepEqual(r.reshape, { dims: [2, 3], data: [1, 2, 3, 4, 5, 6] });
      assert.equal(r.isolated, isolated);
      assert.equal(r.module, isolated ? 'onnx-wasm-threads' : 'onnx-wasm');
      assert.match(r.reason, isolated ? /cross-origin isolated/ : /not cross-origin isolated/);
      assert.equal(threadsActive, String(isolated), 'the threads build\'s workers are ready');
      assert.deepEqual(problems, []);
    } finally {
      await tab.close();
      await server.close();
    }
  });
}
