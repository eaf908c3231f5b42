// The one-file browser entries: js/web.mjs and js/web-threads.mjs, each bundled by esbuild with the
// wrapper and its Emscripten glue into dist/onnx-wasm.web.mjs and dist/onnx-wasm-threads.web.mjs
// (with source maps), and the one-thread glue that the threads entry imports where it cannot run
// threads, as dist/onnx-wasm-glue.web.mjs. These files are for browsers only, and must bundle
// (Vite, esbuild) with no warning and name only their own files (issue 31):
// - globalThis.__ONNX_WASM_WEB_ENTRY__ is defined as true: js/runtime.mjs's Node paths and its
//   references to the other builds are then dead code, which esbuild drops.
// - Each glue is built for the web: its ENVIRONMENT_IS_NODE made the constant false (esbuild drops
//   the Node branches and their require('fs'), 'path', 'os', 'worker_threads', 'perf_hooks'), and
//   its CommonJS/AMD export footer removed (in an ES module it is dead, and bundlers warn about
//   `module` and `exports`). The edits match 3.1.6's exact text, and fail the build if it differs.
// - The threads entry's workers load the classic-script glue and the worker script: their
//   copies for the browser, dist/threads/onnx-wasm-threads.web.js and
//   onnx-wasm-threads.worker.web.js, are the same edits, minified (top-level names kept: the
//   worker calls the glue's createOnnxWasmModule).
// - The output is checked: no Node built-in named, no require(), no file of dist/ but those
//   expected.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { NODE_ENV_DECL, withoutExportFooter } from './glue-text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// A glue's text (dist/*.mjs, dist/threads/*.js) for the browser; the worker script has no footer.
function webGlue(text, file, { footer = true } = {}) {
  if (!text.includes(NODE_ENV_DECL)) throw new Error(`build-web: ${file} has no "${NODE_ENV_DECL}" (another Emscripten?)`);
  const forWeb = text.replace(NODE_ENV_DECL, '').replace(/\bENVIRONMENT_IS_NODE\b/g, 'false');
  return footer ? withoutExportFooter(forWeb, `build-web: ${file}`) : forWeb;
}

// The one-thread entry runs both one-thread builds with the SIMD build's glue (js/web.mjs): the
// two glues must be the same but for the .wasm's name.
const glueOf = (name) => readFileSync(join(root, 'dist', `${name}.mjs`), 'utf8');
if (glueOf('onnx-wasm-nosimd').replaceAll('onnx-wasm-nosimd', 'onnx-wasm') !== glueOf('onnx-wasm'))
  throw new Error('build-web: dist/onnx-wasm.mjs and dist/onnx-wasm-nosimd.mjs differ by more than the .wasm name');

const webGlues = {
  name: 'web-glues',
  setup(b) {
    // The threads entry's import of the one-thread glue, made only where it falls back: the glue
    // built for the web, a file of its own beside the entry.
    b.onResolve({ filter: /^\.\.\/dist\/onnx-wasm\.mjs$/ }, (args) => (args.kind === 'dynamic-import' ? { path: './onnx-wasm-glue.web.mjs', external: true } : undefined));
    b.onLoad({ filter: /[/\\]dist[/\\](threads[/\\])?onnx-wasm(-threads)?\.mjs$/ }, (args) => ({ contents: webGlue(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
  },
};

// Node's built-ins: named (as `import('node:fs')`) only in code that the define makes dead; kept
// external so that esbuild resolves them before it drops that code, then checked absent.
const NODE_BUILTINS = ['fs', 'fs/promises', 'path', 'os', 'module', 'worker_threads', 'perf_hooks', 'url', 'crypto', 'child_process'];
const common = {
  bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning',
  plugins: [webGlues], define: { 'globalThis.__ONNX_WASM_WEB_ENTRY__': 'true' },
  external: ['node:*', ...NODE_BUILTINS],
};

// The workers' scripts, classic scripts: transformed, not bundled (esbuild keeps a script's
// top-level names, which are globals).
for (const [from, to, footer] of [['onnx-wasm-threads.js', 'onnx-wasm-threads.web.js', true], ['onnx-wasm-threads.worker.js', 'onnx-wasm-threads.worker.web.js', false]]) {
  const file = join(root, 'dist/threads', from);
  const { code } = await transform(webGlue(readFileSync(file, 'utf8'), file, { footer }), { minify: true, target: 'es2022', logLevel: 'warning' });
  writeFileSync(join(root, 'dist/threads', to), code);
}

const outputs = [
  { entry: 'js/web.mjs', out: 'dist/onnx-wasm.web.mjs', files: ['../dist/onnx-wasm.wasm', '../dist/onnx-wasm-nosimd.wasm'] },
  { entry: 'js/web-threads.mjs', out: 'dist/onnx-wasm-threads.web.mjs',
    files: ['../dist/threads/onnx-wasm-threads.wasm', '../dist/threads/onnx-wasm-threads.web.js', '../dist/threads/onnx-wasm-threads.worker.web.js',
      '../dist/onnx-wasm.wasm', '../dist/onnx-wasm-nosimd.wasm', './onnx-wasm-glue.web.mjs'] },
  { entry: 'dist/onnx-wasm.mjs', out: 'dist/onnx-wasm-glue.web.mjs', files: [] },
  { out: 'dist/threads/onnx-wasm-threads.web.js', files: [] },
  { out: 'dist/threads/onnx-wasm-threads.worker.web.js', files: [] },
];
for (const { entry, out, files } of outputs) {
  if (entry) await build({ ...common, entryPoints: [join(root, entry)], outfile: join(root, out), sourcemap: out !== 'dist/onnx-wasm-glue.web.mjs' });
  const text = readFileSync(join(root, out), 'utf8');
  const builtin = new RegExp(`["'\`](node:[\\w/]+|${NODE_BUILTINS.join('|')})["'\`]`).exec(text);
  if (builtin) throw new Error(`build-web: ${out} names Node's ${builtin[1]}`);
  if (/\brequire\s*\(/.test(text)) throw new Error(`build-web: ${out} calls require()`);
  const named = [...text.matchAll(/["'](\.\.?\/[^"']+\.(?:wasm|js|mjs))["']/g)].map((m) => m[1]);
  if (named.toSorted().join() !== files.toSorted().join()) throw new Error(`build-web: ${out} names ${named.join(', ')}, expected ${files.join(', ')}`);
}
