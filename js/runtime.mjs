// Loads the wasm module once. Two builds ship in dist/: onnx-wasm (wasm SIMD) and
// onnx-wasm-nosimd (for engines without SIMD); the choice is made at load time and reported.
// In Node the bytes are read with fs (Emscripten 3.1.6's glue would call fetch() on a file
// path); in browsers the .wasm next to dist/ is streamed (instantiateStreaming) when the server
// sends application/wasm, else fetched whole. Callers may pass their own `wasmUrl` or `wasmBinary`.
import { invalidArgument } from './errors.mjs';

let modulePromise = null;
let wasmModule = null;
let runtimeInfo = null;

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

// The smallest module using a v128 instruction (the probe of wasm-feature-detect).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

function chooseBuild(options) {
  if (options.simd === false) return { name: 'onnx-wasm-nosimd', simd: false, reason: 'SIMD disabled by the caller (init({ simd: false }))' };
  const supported = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  if (!supported) return { name: 'onnx-wasm-nosimd', simd: false, reason: 'this engine does not support wasm SIMD' };
  return { name: 'onnx-wasm', simd: true, reason: 'this engine supports wasm SIMD' };
}

async function nodeFactory(build) {
  const { createRequire } = await import('node:module');
  const nodeRequire = createRequire(import.meta.url);
  return build.simd ? nodeRequire('../dist/onnx-wasm.cjs') : nodeRequire('../dist/onnx-wasm-nosimd.cjs');
}

async function browserFactory(build) {
  // Two literal imports so that bundlers see (and copy) both glue files.
  const glue = build.simd ? await import('../dist/onnx-wasm.mjs') : await import('../dist/onnx-wasm-nosimd.mjs');
  return glue.default;
}

function defaultWasmUrl(build) {
  return build.simd ? new URL('../dist/onnx-wasm.wasm', import.meta.url) : new URL('../dist/onnx-wasm-nosimd.wasm', import.meta.url);
}

async function loadModule(options) {
  const build = chooseBuild(options);
  const wasmUrl = options.wasmUrl ? new URL(options.wasmUrl, isNode ? import.meta.url : globalThis.location?.href) : defaultWasmUrl(build);
  const moduleArgs = {};
  let loadedFrom;
  if (options.wasmBinary) {
    moduleArgs.wasmBinary = options.wasmBinary;
    loadedFrom = 'bytes passed by the caller';
  } else if (isNode) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(wasmUrl);
    loadedFrom = wasmUrl.href;
  } else {
    loadedFrom = wasmUrl.href;
    moduleArgs.instantiateWasm = (imports, receive) => {
      instantiateFromUrl(wasmUrl, imports).then(
        ({ instance, module, streamed }) => {
          loadedFrom += streamed ? ' (streamed)' : ' (fetched)';
          receive(instance, module);
        },
        (e) => rejectLoad(e),
      );
      return {};
    };
  }
  let rejectLoad;
  const failed = new Promise((_, reject) => { rejectLoad = reject; });
  const factory = isNode ? await nodeFactory(build) : await browserFactory(build);
  const m = await Promise.race([factory(moduleArgs), failed]);
  return { m, build, loadedFrom };
}

async function instantiateFromUrl(url, imports) {
  const response = await fetch(url);
  if (!response.ok) throw invalidArgument(`cannot fetch the onnx-wasm module at ${url}: HTTP ${response.status}`);
  if (typeof WebAssembly.instantiateStreaming === 'function' &&
      (response.headers.get('content-type') ?? '').startsWith('application/wasm')) {
    const r = await WebAssembly.instantiateStreaming(response, imports);
    return { ...r, streamed: true };
  }
  const r = await WebAssembly.instantiate(await response.arrayBuffer(), imports);
  return { ...r, streamed: false };
}

// Loads the module; every later call returns the same promise. Options: { simd: false } forces
// the non-SIMD build; { wasmUrl } or { wasmBinary } give the .wasm to use (it must match the
// chosen build). Resolves to the runtime info (see `runtime()`).
export function init(options = {}) {
  if (!modulePromise) {
    modulePromise = loadModule(options).then(
      ({ m, build, loadedFrom }) => {
        wasmModule = m;
        runtimeInfo = Object.freeze({
          module: build.name,
          simd: build.simd,
          threads: false,
          reason: build.reason,
          loadedFrom,
          kernels: m.kernelTarget(),
          minOpset: m.minOpset(),
          maxOpset: m.maxOpset(),
        });
        return runtimeInfo;
      },
      (e) => {
        modulePromise = null;
        throw e;
      },
    );
  }
  return modulePromise;
}

// Which module is loaded and why ({ module, simd, threads, reason, loadedFrom, kernels, ... }),
// or null before init() has finished.
export function runtime() {
  return runtimeInfo;
}

// The loaded module, or an error that says to await init() first.
export function getModule() {
  if (!wasmModule) throw invalidArgument('onnx-wasm is not initialized: call `await init()` first');
  return wasmModule;
}
