// The one-file entries through the bundlers a user has (issue 31): the npm tarball installed in an
// empty folder, and an app importing 'onnx-wasm/web' or 'onnx-wasm/web-threads' built with Vite
// (`vite build`) and with esbuild (`--bundle --minify`), each at its default log level. Each build
// prints no warning; its output holds only the entry's own .wasm files (Vite copies what the entry
// names with `new URL(..., import.meta.url)`; beside an esbuild bundle the page serves those files
// alone, found through init({ wasmPaths })) and names no Node built-in; and its page runs a
// Gather in Chromium, fetching one .wasm. The esbuild bundle of 'onnx-wasm/web' is smaller than
// that of 'onnx-wasm'.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, repo, serveDir, watchPage } from './support.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-bundlers-'));
const bin = (name) => join(repo, 'node_modules/.bin', name);
const pkg = () => join(tmp, 'node_modules/onnx-wasm/dist');
let browser;

// What each entry may need of dist/: the .wasm of each build it can load (onnx-wasm/web: the
// one-thread builds, with SIMD and without; onnx-wasm/web-threads: the threads build, and the
// one-thread ones where it cannot run threads), the threads build's worker scripts and the
// one-thread glue the threads entry imports then.
const ENTRIES = {
  web: { wasm: ['onnx-wasm.wasm', 'onnx-wasm-nosimd.wasm'], other: [] },
  'web-threads': {
    wasm: ['threads/onnx-wasm-threads.wasm', 'onnx-wasm.wasm', 'onnx-wasm-nosimd.wasm'],
    other: ['threads/onnx-wasm-threads.web.js', 'threads/onnx-wasm-threads.worker.web.js', 'onnx-wasm-glue.web.mjs'],
  },
};

const app = (specifier, wasmPaths) => `
import { init, Tensor, runNode, runtime, threadsReady } from '${specifier}';
try {
  const info = await init(${wasmPaths ? `{ wasmPaths: ${JSON.stringify(wasmPaths)} }` : ''});
  const [g] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]), new Tensor('int64', [2n, -3n], [2])], { opset: 13 });
  await threadsReady();
  document.body.dataset.result = JSON.stringify({ gather: { dims: g.dims, data: Array.from(g.data) }, module: info.module, threadsActive: runtime().threadsActive });
} catch (e) {
  document.body.dataset.result = JSON.stringify({ error: String(e?.stack ?? e) });
}
`;
const page = '<!doctype html><meta charset="utf-8"><title>onnx-wasm bundle</title><link rel="icon" href="data:,"><script type="module" src="./app.js"></script><body></body>';

// A command's exit status and everything it printed (stdout and stderr, as the user sees them).
function run(command, args) {
  const r = spawnSync(command, args, { cwd: tmp, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

// The lines of a build's output that warn: Vite/Rolldown's "[plugin ...]" and "[CODE]" notices,
// "(!)" notes and "externalized for browser compatibility", esbuild's "▲ [WARNING]".
const warnings = (output) => output.split('\n').filter((line) => /warn|externaliz|\(!\)|▲|\[[A-Z][A-Z_]{3,}\]|\[plugin /i.test(line));

const files = (dir) => readdirSync(dir, { recursive: true }).filter((f) => statSync(join(dir, f)).isFile()).map((f) => f.split('\\').join('/')).toSorted();

// A Node built-in named as a module (imported, required, or a 'node:' specifier): the text
// around it, or null.
const NODE_BUILTIN = /(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s*)["'`](?:node:)?(?:fs|fs\/promises|path|os|worker_threads|perf_hooks|module|url|crypto|child_process)["'`]|["'`]node:[a-z_/]+["'`]/;
function builtinNamed(text) {
  const m = NODE_BUILTIN.exec(text);
  return m && text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 20);
}

// Which file of the package's dist/ an output file is a copy of (Vite renames them), by content.
function distCopyOf(file) {
  const bytes = readFileSync(file);
  return files(pkg()).find((f) => statSync(join(pkg(), f)).size === bytes.length && readFileSync(join(pkg(), f)).equals(bytes));
}

const builds = {};   // `${bundler} ${entry}` -> { output, dir }

before(() => {
  execFileSync('npm', ['pack', repo, '--pack-destination', tmp, '--silent'], { cwd: tmp, encoding: 'utf8' });
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'bundler-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', `./${tgz}`], { cwd: tmp, stdio: 'pipe' });
  for (const entry of Object.keys(ENTRIES)) {
    // Vite: a production build of an index.html whose script imports the entry.
    const src = join(tmp, `vite-src-${entry}`), out = join(tmp, `vite-${entry}`);
    mkdirSync(src);
    writeFileSync(join(src, 'app.js'), app(`onnx-wasm/${entry}`));
    writeFileSync(join(src, 'index.html'), page);
    const vite = run(bin('vite'), ['build', src, '--outDir', out, '--emptyOutDir']);
    builds[`vite ${entry}`] = { ...vite, dir: out };

    // esbuild: one minified bundle; the page serves the package's dist/ files under ./onnx-wasm/.
    const esOut = join(tmp, `esbuild-${entry}`);
    writeFileSync(join(tmp, `src-${entry}.mjs`), app(`onnx-wasm/${entry}`, './onnx-wasm/'));
    const esbuild = run(bin('esbuild'), [join(tmp, `src-${entry}.mjs`), '--bundle', '--minify', '--format=esm', `--outfile=${join(esOut, 'app.js')}`]);
    builds[`esbuild ${entry}`] = { ...esbuild, dir: esOut };
  }
});

before(async () => { browser = await launchChromium(); });
after(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

for (const entry of Object.keys(ENTRIES)) {
  const { wasm, other } = ENTRIES[entry];

  test(`vite build of onnx-wasm/${entry}: no warning, only its own .wasm files, no Node built-in`, () => {
    const { status, output, dir } = builds[`vite ${entry}`];
    assert.equal(status, 0, output);
    assert.deepEqual(warnings(output), [], output);
    const out = files(dir);
    const copies = out.filter((f) => f.endsWith('.wasm')).map((f) => distCopyOf(join(dir, f)));
    assert.deepEqual(copies.toSorted(), wasm.toSorted(), `the .wasm files of ${out.join(', ')}`);
    for (const f of out.filter((f) => /\.(m?js|html)$/.test(f)))
      assert.equal(builtinNamed(readFileSync(join(dir, f), 'utf8')), null, `${f} names a Node built-in`);
    // The app's chunk, the one-thread glue's (web-threads), the workers' glue copied as an asset
    // (web-threads; the small worker script is inlined), the .wasm files and index.html.
    assert.equal(out.length, 2 + wasm.length + (entry === 'web-threads' ? 2 : 0), out.join(', '));
  });

  test(`esbuild --bundle --minify of onnx-wasm/${entry}: no warning, one file, no Node built-in`, () => {
    const { status, output, dir } = builds[`esbuild ${entry}`];
    assert.equal(status, 0, output);
    assert.deepEqual(warnings(output), [], output);
    assert.deepEqual(files(dir), ['app.js']);
    assert.equal(builtinNamed(readFileSync(join(dir, 'app.js'), 'utf8')), null, 'app.js names a Node built-in');
    // The page serves the files the entry may need (the one-thread glue is in the bundle itself)
    // under ./onnx-wasm/, and no other: the pages below fail if it asks for another.
    for (const f of [...wasm, ...other.filter((f) => !f.endsWith('.mjs'))]) {
      mkdirSync(join(dir, 'onnx-wasm', dirname(f)), { recursive: true });
      cpSync(join(pkg(), f), join(dir, 'onnx-wasm', f));
    }
    writeFileSync(join(dir, 'index.html'), page);
  });
}

test('esbuild --bundle --minify: onnx-wasm/web is smaller than onnx-wasm', () => {
  writeFileSync(join(tmp, 'src-default.mjs'), app('onnx-wasm', './onnx-wasm/'));
  const { status, output } = run(bin('esbuild'), [join(tmp, 'src-default.mjs'), '--bundle', '--minify', '--format=esm', `--outfile=${join(tmp, 'esbuild-default/app.js')}`]);
  assert.equal(status, 0, output);
  const web = statSync(join(tmp, 'esbuild-web/app.js')).size, def = statSync(join(tmp, 'esbuild-default/app.js')).size;
  assert.ok(web < def, `onnx-wasm/web ${web} bytes, onnx-wasm ${def} bytes`);
});

const pages = [
  { bundler: 'vite', entry: 'web', isolated: false, module: 'onnx-wasm' },
  { bundler: 'vite', entry: 'web-threads', isolated: true, module: 'onnx-wasm-threads' },
  { bundler: 'vite', entry: 'web-threads', isolated: false, module: 'onnx-wasm' },
  { bundler: 'esbuild', entry: 'web', isolated: false, module: 'onnx-wasm' },
  { bundler: 'esbuild', entry: 'web-threads', isolated: true, module: 'onnx-wasm-threads' },
  { bundler: 'esbuild', entry: 'web-threads', isolated: false, module: 'onnx-wasm' },
];
for (const { bundler, entry, isolated, module } of pages) {
  test(`${bundler} page of onnx-wasm/${entry}, ${isolated ? 'cross-origin isolated' : 'plain'}: a Gather on ${module}`, async () => {
    const { dir } = builds[`${bundler} ${entry}`];
    assert.ok(files(dir).includes('index.html'), 'built (and, for esbuild, its files copied by the test above)');
    const requests = [];
    const server = await serveDir(dir, { isolated, requests });
    const tab = await browser.newPage();
    const problems = watchPage(tab);
    try {
      await tab.goto(server.url);
      await tab.waitForFunction(() => document.body.dataset.result, null, { timeout: 20000 });
      const r = JSON.parse(await tab.evaluate(() => document.body.dataset.result));
      assert.equal(r.error, undefined, r.error);
      assert.deepEqual(r.gather, { dims: [2, 2], data: [5, 6, 1, 2] });
      assert.equal(r.module, module);
      assert.equal(r.threadsActive, module === 'onnx-wasm-threads');
      assert.deepEqual(problems, []);
      assert.equal(requests.filter((p) => p.endsWith('.wasm')).length, 1, `one .wasm fetched: ${requests.join(', ')}`);
      if (bundler === 'esbuild') {
        const { wasm, other } = ENTRIES[entry];
        for (const p of requests.filter((p) => p.startsWith('/onnx-wasm/')))
          assert.ok([...wasm, ...other].includes(relative('/onnx-wasm', p)), `${p} is not a file of onnx-wasm/${entry}`);
      }
    } finally {
      await tab.close();
      await server.close();
    }
  });
}
