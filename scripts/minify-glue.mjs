// Minifies the Emscripten glue that Node loads with require(): dist/onnx-wasm.cjs and
// dist/onnx-wasm-nosimd.cjs (the one-thread builds), dist/threads/onnx-wasm-threads.js and its
// worker script (the threads build, also loaded by a browser's workers outside the one-file
// entries). Emscripten 3.1.6 leaves their names and much of their syntax as written; the glue is
// parsed again in each fresh process, and in each worker, so its size is part of the time to a
// first result (docs/performance.md, "Figures behind design choices").
// Every name the glue defines lives inside its factory function, except the factory's own,
// createOnnxWasmModule, which the worker script calls: esbuild keeps a script's top-level names
// (they are globals). The wrapper reads the module object's properties (Module.PThread, the
// bound functions), which minifying never renames.
// Runs last in scripts/build.sh: scripts/build-web.mjs and the ES module glue for bundlers
// (dist/*.mjs, dist/threads/onnx-wasm-threads.mjs, which bundlers minify) start from Emscripten's
// text as scripts/build-wasm.sh writes it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = ['dist/onnx-wasm.cjs', 'dist/onnx-wasm-nosimd.cjs', 'dist/threads/onnx-wasm-threads.js', 'dist/threads/onnx-wasm-threads.worker.js'];
for (const file of files) {
  const path = join(root, file);
  const { code } = await transform(readFileSync(path, 'utf8'), { minify: true, target: 'es2020', logLevel: 'warning' });
  if (!file.endsWith('worker.js') && !/\bcreateOnnxWasmModule\b/.test(code)) throw new Error(`minify-glue: ${file} no longer defines createOnnxWasmModule`);
  writeFileSync(path, code);
}
