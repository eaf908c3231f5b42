// Runs the engine suite in a browser page (Chromium, Firefox): index.html maps `onnx-wasm` to the
// package's browser entry with an import map and loads this module, which fetches model.onnx and
// weights.bin from the same server and puts the result, as JSON, in document.body.dataset.result.
// snippet.html and snippet-threads.html map it to a one-file entry instead and carry the README's
// head snippet, whose compiled module (the global `onnxWasmModule`) goes to init({ wasmModule }).
import { runSuite } from './suite.mjs';

const bytes = async (name) => {
  const response = await fetch(name);
  if (!response.ok) throw new Error(`GET ${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
};
let result;
try {
  // (a classic script's `const` is a global binding, not a property of globalThis)
  const initOptions = document.documentElement.dataset.snippet ? { wasmModule: onnxWasmModule } : {};
  result = await runSuite({ model: await bytes('model.onnx'), weights: await bytes('weights.bin'), initOptions });
} catch (e) {
  result = { error: String(e?.stack ?? e) };
}
document.body.dataset.result = JSON.stringify(result);
