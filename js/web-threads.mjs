// Browser entry of the threads build (SIMD + workers), bundled with its Emscripten glue into one
// file, dist/onnx-wasm-threads.web.mjs (scripts/build-web.mjs), exported as
// 'onnx-wasm/web-threads'. Its .wasm is fetched and compiled (streaming) from the first microtask
// after this module is evaluated, unless init() has been called by then (as js/web.mjs). The
// workers load the classic-script glue and their own script from dist/threads/, in the copies
// built for the browser (onnx-wasm-threads.web.js, onnx-wasm-threads.worker.web.js: without the
// Node paths, scripts/build-web.mjs). In a page that is
// not cross-origin isolated, init() loads a one-thread build instead: the one-thread glue, imported
// then (built for the browser as dist/onnx-wasm-glue.web.mjs), with dist/onnx-wasm.wasm, or
// dist/onnx-wasm-nosimd.wasm where SIMD is missing. A bundler that follows
// `new URL(..., import.meta.url)` (Vite) copies those files and nothing else.
// @ts-check
// (The glues are files of dist/, made by scripts/build.sh as js/generated/ is, which the type check
// also needs: tsc reads their types without checking them, and webEntry types what it takes.)
import createOnnxWasmModule from '../dist/threads/onnx-wasm-threads.mjs';
import { webEntry } from './runtime.mjs';

// (scripts/build-web.mjs points this import at dist/onnx-wasm-glue.web.mjs)
const oneThread = async () => (await import('../dist/onnx-wasm.mjs')).default;
webEntry({
  glues: { 'onnx-wasm-threads': async () => createOnnxWasmModule, 'onnx-wasm': oneThread, 'onnx-wasm-nosimd': oneThread },
  files: {
    'threads/onnx-wasm-threads.wasm': { path: 'threads/onnx-wasm-threads.wasm', url: new URL('../dist/threads/onnx-wasm-threads.wasm', import.meta.url) },
    'threads/onnx-wasm-threads.js': { path: 'threads/onnx-wasm-threads.web.js', url: new URL('../dist/threads/onnx-wasm-threads.web.js', import.meta.url) },
    'threads/onnx-wasm-threads.worker.js': { path: 'threads/onnx-wasm-threads.worker.web.js', url: new URL('../dist/threads/onnx-wasm-threads.worker.web.js', import.meta.url) },
    'onnx-wasm.wasm': { path: 'onnx-wasm.wasm', url: new URL('../dist/onnx-wasm.wasm', import.meta.url) },
    'onnx-wasm-nosimd.wasm': { path: 'onnx-wasm-nosimd.wasm', url: new URL('../dist/onnx-wasm-nosimd.wasm', import.meta.url) },
  },
  threads: true,
}, globalThis.crossOriginIsolated ? { name: 'onnx-wasm-threads', wasm: 'threads/onnx-wasm-threads.wasm' } : null);

export * from './index.mjs';
