// Runs the engine suite in a browser page (Chromium, Firefox): index.html maps `onnx-wasm` to the
// package's browser entry with an import map and loads this module, which fetches model.onnx and
// weights.bin from the same server and puts the result, as JSON, in document.body.dataset.result.
import { runSuite } from './suite.mjs';

const bytes = async (name) => {
  const response = await fetch(name);
  if (!response.ok) throw new Error(`GET ${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
};
let result;
try {
  result = await runSuite({ model: await bytes('model.onnx'), weights: await bytes('weights.bin') });
} catch (e) {
  result = { error: String(e?.stack ?? e) };
}
document.body.dataset.result = JSON.stringify(result);
