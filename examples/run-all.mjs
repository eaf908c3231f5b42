// `npm start`: runs every example in this folder, one after another.
import { readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let intended = 0;
for (const f of readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs').sort()) {
  console.log(`\n=== examples/${f}`);
  const out = execFileSync(process.execPath, [join(here, f)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(out);
  intended += out.split('\n').filter((l) => l.startsWith('intended error')).length;
}
// What a new user does next (an example that fails stops the loop above, with its error).
console.log(`
Every example ran; ${intended === 1 ? 'the error above was' : `the ${intended} errors above were`} intended.
Next:
  npm test                 run every test (C++ native and wasm, JS API, doc examples, types, browsers)
  npm run playground       try ops and models in a browser page
  npm run bench            onnx-wasm against onnxruntime-web and onnxruntime-node
  README.md, docs/getting-started.md: the API; examples/*.mjs: the code that just ran`);
