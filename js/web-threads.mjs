// Browser entry of the threads build (SIMD + workers), bundled with its Emscripten glue into one
// file, dist/onnx-wasm-threads.web.mjs (scripts/build.sh), exported as 'onnx-wasm/web-threads'.
// Its .wasm is fetched and compiled (streaming) from the first microtask after this module is
// evaluated, unless init() has been called by then (as js/web.mjs). The workers
// still load the classic-script glue from dist/threads/. In a page that is not cross-origin
// isolated, init() loads the one-thread build instead (its glue and .wasm from dist/).
// @ts-check
// (The glue is a file of dist/, made by scripts/build.sh as js/generated/ is, which the type check
// also needs: tsc reads its types without checking it, and prefetchBuild types what it takes.)
import createOnnxWasmModule from '../dist/threads/onnx-wasm-threads.mjs';
import { prefetchBuild } from './runtime.mjs';

if (globalThis.crossOriginIsolated)
  prefetchBuild('onnx-wasm-threads', createOnnxWasmModule, new URL('../dist/threads/onnx-wasm-threads.wasm', import.meta.url), { threads: true });

export * from './index.mjs';
