// Loads the wasm module once. In Node the bytes are read with fs (Emscripten 3.1.6's glue would
// call fetch() on a file path); in browsers they are fetched next to this file unless the caller
// passes `wasmBinary` or `wasmUrl`.
import { invalidArgument } from './errors.mjs';

let modulePromise = null;
let wasmModule = null;

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

async function loadModule(options) {
  const wasmUrl = options.wasmUrl ? new URL(options.wasmUrl, import.meta.url) : new URL('../dist/onnx-wasm.wasm', import.meta.url);
  let factory;
  let wasmBinary = options.wasmBinary;
  if (isNode) {
    const { createRequire } = await import('node:module');
    const { readFile } = await import('node:fs/promises');
    const nodeRequire = createRequire(import.meta.url);
    factory = nodeRequire(new URL('../dist/onnx-wasm.cjs', import.meta.url).pathname);
    wasmBinary ??= await readFile(wasmUrl);
  } else {
    factory = (await import('../dist/onnx-wasm.mjs')).default;
    if (!wasmBinary) {
      const response = await fetch(wasmUrl);
      if (!response.ok) throw invalidArgument(`cannot fetch the onnx-wasm module at ${wasmUrl}: HTTP ${response.status}`);
      wasmBinary = new Uint8Array(await response.arrayBuffer());
    }
  }
  return factory({ wasmBinary });
}

// Loads the module; every later call returns the same promise. Resolves to { kernels, maxOpset }.
export function init(options = {}) {
  if (!modulePromise) {
    modulePromise = loadModule(options).then(
      (m) => {
        wasmModule = m;
        return Object.freeze({ kernels: m.kernelTarget(), minOpset: m.minOpset(), maxOpset: m.maxOpset() });
      },
      (e) => {
        modulePromise = null;
        throw e;
      },
    );
  }
  return modulePromise;
}

// The loaded module, or an error that says to await init() first.
export function getModule() {
  if (!wasmModule) throw invalidArgument('onnx-wasm is not initialized: call `await init()` first');
  return wasmModule;
}
