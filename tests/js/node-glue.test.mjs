// How Node loads the Emscripten glue (js/runtime.mjs, nodeFactory; scripts/node-glue.mjs): as an
// ES module (dist/*.node.mjs) where process.getBuiltinModule exists, else the CommonJS glue
// through createRequire. Each case in a fresh process, through both Node entries (dist/index.mjs,
// dist/index.cjs) and js/index.mjs, for each build: the glue files that process required (the
// CommonJS module cache) tell the paths apart, and a Gather checks the module works. The threads
// build's workers always load the classic script (dist/threads/onnx-wasm-threads.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = { 'dist/index.mjs': 'import', 'dist/index.cjs': 'require', 'js/index.mjs': 'import' };
const OPTIONS = { 'onnx-wasm': { threads: false }, 'onnx-wasm-nosimd': { simd: false }, 'onnx-wasm-threads': {} };

/** @param {string} entry @param {object} options @param {boolean} builtinModule whether process.getBuiltinModule is left */
function child(entry, options, builtinModule) {
  const load = ENTRIES[entry] === 'import' ? `await import(${JSON.stringify(`${repo}${entry}`)})` : `createRequire(import.meta.url)(${JSON.stringify(`${repo}${entry}`)})`;
  const code = `
import { createRequire } from 'node:module';
${builtinModule ? '' : 'delete process.getBuiltinModule;'}
const o = ${load};
const info = await o.init(${JSON.stringify(options)});
if (info.module === 'onnx-wasm-threads') await o.threadsReady();
const [g] = o.runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new o.Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]), new o.Tensor('int64', [2n, -3n], [2])], { opset: 13 });
const required = Object.keys(createRequire(import.meta.url).cache).filter((f) => /onnx-wasm[^/]*\\.(c?js)$/.test(f) && !/index\\.cjs$/.test(f)).map((f) => f.slice(${JSON.stringify(repo)}.length));
console.log(JSON.stringify({ module: info.module, threadsActive: o.runtime().threadsActive, data: Array.from(g.data), required }));
process.exit(0);
`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd: repo });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

for (const entry of Object.keys(ENTRIES)) {
  for (const [name, options] of Object.entries(OPTIONS)) {
    test(`${entry}, ${name}: the ES module glue where process.getBuiltinModule exists, the CommonJS glue without it`, () => {
      const esm = child(entry, options, true);
      const cjs = child(entry, options, false);
      for (const r of [esm, cjs]) {
        assert.equal(r.module, name);
        assert.deepEqual(r.data, [5, 6, 1, 2]);
        if (name === 'onnx-wasm-threads') assert.equal(r.threadsActive, true);
      }
      const classic = name === 'onnx-wasm-threads' ? 'dist/threads/onnx-wasm-threads.js' : `dist/${name}.cjs`;
      assert.deepEqual(esm.required, [], 'the ES module path requires no glue in the main thread');
      assert.deepEqual(cjs.required, [classic]);
    });
  }
}
