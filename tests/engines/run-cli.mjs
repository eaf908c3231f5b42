// Runs the engine suite in a command-line engine (Node, Deno, Bun): started by engines.test.mjs as
// `<engine> run-cli.mjs` inside the folder where the packed onnx-wasm is installed, next to
// model.onnx and weights.bin. Prints one line, `ENGINE-RESULT <json>`, and then lets the process end
// by itself (a worker left referenced would keep it alive: the harness's timeout would say so).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runSuite } from './suite.mjs';

let result;
try {
  const modelPath = fileURLToPath(new URL('model.onnx', import.meta.url));
  result = await runSuite({
    model: readFileSync(modelPath),
    weights: readFileSync(new URL('weights.bin', import.meta.url)),
    modelPath,
  });
} catch (e) {
  result = { error: String(e?.stack ?? e) };
}
console.log(`ENGINE-RESULT ${JSON.stringify(result)}`);
