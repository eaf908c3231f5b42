// Node's entries, the wrapper as one file each (one file imports faster than js/'s modules one by
// one): dist/index.mjs (`import 'onnx-wasm'` in Node, Deno and Bun) and dist/index.cjs
// (`require('onnx-wasm')`, with import.meta.url mapped). Whitespace, comments and syntax are
// minified, which V8 parses faster; names are kept, for stack traces; lines are cut at 120
// characters, as Node prints the source line of an uncaught error's throw beside it (a bundle of
// one long line printed all of it, 64 KB, beside a missing file's ModelError); a source map beside each,
// for --enable-source-maps and debuggers, points into js/, which the package ships
// (docs/performance.md, "Figures behind design choices"). The glue files stay separate, imported
// when needed. These runtimes have no origin private file system: the OPFS cache's code
// (js/model/model-cache.mjs, opfs-source.mjs and what only they import) is replaced by
// js/model/opfs-node.mjs, and the build checks that none of it is left.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAND_IN = join(root, 'js/model/opfs-node.mjs');
const LEFT_OUT = ['js/model/model-cache.mjs', 'js/model/opfs-source.mjs', 'js/model/opfs-store.mjs', 'js/model/opfs-files.mjs'];

const opfsLeftOut = {
  name: 'opfs-left-out',
  setup(b) {
    b.onResolve({ filter: /^\.\/(model\/)?(model-cache|opfs-source)\.mjs$/ }, () => ({ path: STAND_IN }));
  },
};

const common = {
  entryPoints: [join(root, 'js/index.mjs')], bundle: true, platform: 'node', logLevel: 'warning',
  minifyWhitespace: true, minifySyntax: true, lineLimit: 120, sourcemap: true, sourcesContent: false, metafile: true,
  external: ['../dist/onnx-wasm.mjs', '../dist/onnx-wasm-nosimd.mjs', '../dist/threads/onnx-wasm-threads.mjs'],
  plugins: [opfsLeftOut],
};

for (const options of [
  { format: 'esm', outfile: join(root, 'dist/index.mjs') },
  { format: 'cjs', outfile: join(root, 'dist/index.cjs'), define: { 'import.meta.url': '__onnxWasmImportMetaUrl' },
    banner: { js: "const __onnxWasmImportMetaUrl = require('url').pathToFileURL(__filename).href;" } },
]) {
  const { metafile } = await build({ ...common, ...options });
  const inputs = Object.keys(metafile.inputs);
  const left = LEFT_OUT.filter((f) => inputs.includes(f));
  if (left.length || !inputs.includes('js/model/opfs-node.mjs'))
    throw new Error(`build-node: ${options.outfile} should hold js/model/opfs-node.mjs and none of ${LEFT_OUT.join(', ')}; it holds ${inputs.filter((f) => f.includes('opfs')).join(', ')}`);
}
