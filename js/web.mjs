// Browser entry of the one-thread build, bundled with its Emscripten glue into one file,
// dist/onnx-wasm.web.mjs (scripts/build-web.mjs), exported as 'onnx-wasm/web'. The .wasm is
// fetched and compiled (streaming) from the first microtask after this module is evaluated, so
// that init() finds it ready, unless init() has been called by then (it fetches it itself, or
// takes the page's own compile: init({ wasmModule }), README "First result"). The page may start
// the fetch even earlier with <link rel="preload" href=".../dist/onnx-wasm.wasm" as="fetch"
// type="application/wasm" crossorigin>. init() keeps to one thread (this entry carries no threads
// build: onnx-wasm/web-threads does), and loads the non-SIMD .wasm where SIMD is missing: the two
// one-thread builds share this glue (Emscripten's output for them differs only in the .wasm's
// file name, which init() gives; scripts/build-web.mjs checks that). A bundler that follows
// `new URL(..., import.meta.url)` (Vite) copies those two .wasm files and nothing else.
// @ts-check
// (The glue is a file of dist/, made by scripts/build.sh as js/generated/ is, which the type check
// also needs: tsc reads its types without checking it, and webEntry types what it takes.)
import createOnnxWasmModule from '../dist/onnx-wasm.mjs';
import { webEntry } from './runtime.mjs';

const glue = async () => createOnnxWasmModule;
webEntry({
  glues: { 'onnx-wasm': glue, 'onnx-wasm-nosimd': glue },
  files: {
    'onnx-wasm.wasm': { path: 'onnx-wasm.wasm', url: new URL('../dist/onnx-wasm.wasm', import.meta.url) },
    'onnx-wasm-nosimd.wasm': { path: 'onnx-wasm-nosimd.wasm', url: new URL('../dist/onnx-wasm-nosimd.wasm', import.meta.url) },
  },
  threads: false,
}, { name: 'onnx-wasm', wasm: 'onnx-wasm.wasm' });

export * from './index.mjs';
