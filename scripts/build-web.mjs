// The one-file browser entries: js/web.mjs and js/web-threads.mjs, each bundled by esbuild with the
// wrapper and its Emscripten glue into dist/onnx-wasm.web.mjs and dist/onnx-wasm-threads.web.mjs
// (with source maps). The glues runtime.mjs imports on demand (another build than the entry's)
// stay separate files: dynamic imports are left as written, and '../dist/x' from dist/ is dist/x.
import { build } from 'esbuild';

const lazyGlues = {
  name: 'lazy-glues',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/dist\// }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};

for (const [entry, out] of [['js/web.mjs', 'dist/onnx-wasm.web.mjs'], ['js/web-threads.mjs', 'dist/onnx-wasm-threads.web.mjs']]) {
  await build({
    entryPoints: [entry], outfile: out, bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
    sourcemap: true, minify: true, logLevel: 'warning', plugins: [lazyGlues],
    // (the glue's CommonJS branch is dead code in an ES module)
    logOverride: { 'commonjs-variable-in-esm': 'silent' },
    // Node's built-ins are never reached in a browser (the glue's and runtime.mjs's Node paths).
    external: ['node:*', 'fs', 'path', 'os', 'module', 'worker_threads', 'perf_hooks', 'url', 'crypto'],
  });
}
