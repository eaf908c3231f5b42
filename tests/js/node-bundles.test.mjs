// Node's bundles (dist/index.mjs, dist/index.cjs: scripts/build-node.mjs) leave the OPFS cache's
// code out, for js/model/opfs-node.mjs: what they hold (their source maps list it), and that
// create(..., { cache: 'opfs' }) and modelCache fail in Node with the same typed error as js/
// (each entry in a fresh process, as a user's script loads it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = { 'dist/index.mjs': 'import', 'dist/index.cjs': 'require', 'js/index.mjs': 'import' };

/** @param {string} entry @param {string} body run with `o`, the entry's exports; prints what it returns, as JSON */
function child(entry, body) {
  const load = ENTRIES[entry] === 'import' ? `await import(${JSON.stringify(`${repo}${entry}`)})` : `createRequire(import.meta.url)(${JSON.stringify(`${repo}${entry}`)})`;
  const code = `import { createRequire } from 'node:module';\nconst o = ${load};\nconsole.log(JSON.stringify(await (async () => { ${body} })()));\nprocess.exit(0);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd: repo });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

// (the error a promise rejects with, as { name, code, message, typed: instanceof the entry's class })
const CAUGHT = 'const caught = (p) => p.then(() => null, (e) => ({ name: e.constructor.name, code: e.code, message: e.message, typed: e instanceof o.ExternalDataError }));';

test("the bundles hold opfs-node.mjs and none of the OPFS cache's modules", () => {
  for (const file of ['dist/index.mjs', 'dist/index.cjs']) {
    const sources = JSON.parse(readFileSync(`${repo}${file}.map`, 'utf8')).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    assert.ok(sources.includes('js/model/opfs-node.mjs'), file);
    assert.ok(sources.includes('js/model/opfs-missing.mjs'), file);
    assert.deepEqual(sources.filter((s) => /(model-cache|opfs-files|opfs-source|opfs-store)\.mjs$/.test(s)), [], file);
  }
});

test("in Node, every entry: cache 'opfs' and modelCache fail with the same ExternalDataError", () => {
  const body = `${CAUGHT}
    return [await caught(o.InferenceSession.create('http://127.0.0.1:9/model.onnx', { cache: 'opfs' })), await caught(o.modelCache.entries()),
      await caught(o.modelCache.delete('http://127.0.0.1:9/model.onnx')), await caught(o.modelCache.clear())];`;
  const expected = { name: 'ExternalDataError', code: 'ERR_EXTERNAL_DATA', typed: true,
    message: "the model cache (options.cache 'opfs') needs the origin private file system: this context has no origin private file system (navigator.storage.getDirectory)" };
  for (const entry of Object.keys(ENTRIES)) assert.deepEqual(child(entry, body), [expected, expected, expected, expected], entry);
});

test('a script that gives Node an origin private file system of its own: the bundles say theirs has no OPFS cache', () => {
  const body = `${CAUGHT}
    globalThis.navigator = { storage: { getDirectory: async () => ({}) }, locks: { request: async () => {} } };
    globalThis.Worker = class {};
    return caught(o.modelCache.entries());`;
  for (const entry of ['dist/index.mjs', 'dist/index.cjs']) {
    assert.deepEqual(child(entry, body), { name: 'ExternalDataError', code: 'ERR_EXTERNAL_DATA', typed: true,
      message: "this bundle of onnx-wasm (Node's: dist/index.mjs, dist/index.cjs) has no OPFS cache; import onnx-wasm/web for it" }, entry);
  }
});

test("an uncaught error from a bundle: Node prints the error and one short source line, not the bundle's line of 64 KB", () => {
  // (Node prints the source line of an uncaught error's throw; the bundles' lines are cut at 120
  // characters by scripts/build-node.mjs, where esbuild can cut them: not inside a template)
  const cases = {
    'a missing model file (ModelError)': ["await o.InferenceSession.create('/nonexistent/model.onnx');", "ModelError: cannot read the ONNX model '/nonexistent/model.onnx'"],
    "a node the module refuses (the binding's typed error)": [
      "await o.init(); o.runNode({ opType: 'Flatten', attributes: { axis: 5 } }, [new o.Tensor('float32', [1, 2], [2])]);", 'AttributeError: Flatten-'],
  };
  for (const entry of ['dist/index.mjs', 'dist/index.cjs']) {
    for (const [what, [body, message]] of Object.entries(cases)) {
      const load = ENTRIES[entry] === 'import' ? `await import(${JSON.stringify(`${repo}${entry}`)})` : `createRequire(import.meta.url)(${JSON.stringify(`${repo}${entry}`)})`;
      const code = `import { createRequire } from 'node:module';\nconst o = ${load};\n${body}`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd: repo });
      assert.equal(r.status, 1, `${entry}, ${what}`);
      assert.ok(r.stderr.includes(message), `${entry}, ${what}: ${r.stderr.slice(0, 2000)}`);
      const longest = Math.max(...r.stderr.split('\n').map((l) => l.length));
      assert.ok(longest <= 400 && r.stderr.length < 4000, `${entry}, ${what}: stderr ${r.stderr.length} characters, its longest line ${longest}`);
    }
  }
});
