// The Emscripten glue as Node loads it, made from the glue that scripts/build-wasm.sh wrote:
// - ES module copies, dist/onnx-wasm.node.mjs, dist/onnx-wasm-nosimd.node.mjs and
//   dist/threads/onnx-wasm-threads.node.mjs, which js/runtime.mjs imports where Node has
//   process.getBuiltinModule (>= 20.16; docs/performance.md, "Figures behind design choices"):
//   createRequire() and a first require() of a CommonJS file held the first result. What the
//   glue's Node branch reads of CommonJS is defined before it: __dirname (the folder it names its
//   files in: the threads build's worker script), __filename (the classic script, which the
//   threads build's workers load: they stay on the CommonJS glue) and require (Node's built-ins
//   only, through process.getBuiltinModule). Its CommonJS/AMD export becomes `export default`.
// - The CommonJS glue, kept for Node without process.getBuiltinModule, and the threads build's
//   classic script and worker script (also loaded by a browser's workers outside the one-file
//   entries), minified in place: Emscripten 3.1.6 leaves their names and much of their syntax as
//   written, and each fresh process, and each thread worker, parses them. Lines are cut at 120
//   characters, as in Node's bundles (scripts/build-node.mjs): Node prints an uncaught error's
//   source line.
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
import { withoutExportFooter } from './glue-text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const minify = async (/** @type {string} */ code, /** @type {'esm' | undefined} */ format) =>
  (await transform(code, { minify: true, lineLimit: 120, target: 'es2020', logLevel: 'warning', ...(format ? { format } : {}) })).code;

// [the classic glue, its ES module copy]
const glues = [['dist/onnx-wasm.cjs', 'dist/onnx-wasm.node.mjs'], ['dist/onnx-wasm-nosimd.cjs', 'dist/onnx-wasm-nosimd.node.mjs'],
  ['dist/threads/onnx-wasm-threads.js', 'dist/threads/onnx-wasm-threads.node.mjs']];
for (const [file, esmFile] of glues) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const classic = `./${file.split('/').pop()}`;
  const esm = `var __filename = process.getBuiltinModule('node:url').fileURLToPath(new URL(${JSON.stringify(classic)}, import.meta.url));
var __dirname = process.getBuiltinModule('node:path').dirname(__filename);
var require = (id) => process.getBuiltinModule(id);
${withoutExportFooter(text, `node-glue: ${file}`)}
export default createOnnxWasmModule;
`;
  writeFileSync(join(root, esmFile), await minify(esm, 'esm'));
  const code = await minify(text);
  if (!/\bcreateOnnxWasmModule\b/.test(code)) throw new Error(`node-glue: ${file} no longer defines createOnnxWasmModule`);
  writeFileSync(path, code);
}
const worker = join(root, 'dist/threads/onnx-wasm-threads.worker.js');
writeFileSync(worker, await minify(readFileSync(worker, 'utf8')));
