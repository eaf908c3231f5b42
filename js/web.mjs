// Browser entry of the one-thread build, bundled with its Emscripten glue into one file,
// dist/onnx-wasm.web.mjs (scripts/build.sh), exported as 'onnx-wasm/web'. The .wasm is fetched
// and compiled (streaming) from the first microtask after this module is evaluated, so that
// init() finds it ready, unless init() has been called by then (it fetches it itself, or takes
// the page's own compile: init({ wasmModule }), README "First result"). The page may start the
// fetch even earlier with <link rel="preload" href=".../dist/onnx-wasm.wasm" as="fetch"
// type="application/wasm" crossorigin>. init() keeps to one thread unless given
// { threads: true }, and loads the non-SIMD build where SIMD is missing.
// @ts-check
// (The glue is a file of dist/, made by scripts/build.sh as js/generated/ is, which the type check
// also needs: tsc reads its types without checking it, and prefetchBuild types what it takes.)
import createOnnxWasmModule from '../dist/onnx-wasm.mjs';
import { prefetchBuild } from './runtime.mjs';

prefetchBuild('onnx-wasm', createOnnxWasmModule, new URL('../dist/onnx-wasm.wasm', import.meta.url), { threads: false });

export * from './index.mjs';
