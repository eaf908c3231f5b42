// The npm package: `npm pack` holds the built modules, the wrapper, the declarations, the CLI and
// the README and nothing else; installed into an empty folder (offline: it has no dependencies)
// it runs a Gather through `import` and through `require`, its CLI works, and the type test's
// programs (tests/types/) compile against its declarations, as an ES module and as CommonJS.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { suiteRoots } from '../support/onnx-test-dir.mjs';
import { asCommonJs, compile } from '../types/programs.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-pack-'));
const app = join(tmp, 'app');
let tarball, files;
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' } });

before(() => {
  const out = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], repo));
  tarball = join(tmp, out[0].filename);
  files = out[0].files.map((f) => f.path).sort();
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  npm(['install', '--offline', '--no-audit', '--no-fund', tarball], app);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('the tarball holds the package and nothing else', () => {
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'js/index.mjs', 'js/index.d.ts', 'js/index.d.cts', 'js/generated/types.d.ts', 'js/generated/errors.mjs',
    'dist/index.cjs', 'dist/index.mjs', 'js/model/onnx-proto.mjs', 'dist/onnx-wasm.wasm', 'dist/onnx-wasm.mjs', 'dist/onnx-wasm-nosimd.wasm',
    'dist/threads/onnx-wasm-threads.wasm', 'dist/threads/onnx-wasm-threads.worker.js', 'bin/onnx-wasm.mjs']) {
    assert.ok(files.includes(f), `${f} is missing from the tarball`);
  }
  const allowed = /^(package\.json|README\.md|CHANGELOG\.md|docs\/.*\.md|js\/.*\.(mjs|d\.ts)|js\/index\.d\.cts|dist\/.*|bin\/.*\.mjs)$/;
  assert.deepEqual(files.filter((f) => !allowed.test(f)), []);
  assert.ok(!files.some((f) => /^(src|tests|bindings|scripts|bench|examples|build)\//.test(f)));
});

// README.md's links work where it is read from the package (node_modules, an unpacked tarball):
// docs/ is in it. The package page (npm) resolves them against `repository`, which is set with
// `homepage` and `bugs`.
test("the README's links resolve in the tarball, and package.json names the repository", () => {
  const links = (file) => [...readFileSync(join(app, 'node_modules/onnx-wasm', file), 'utf8').replace(/```[\s\S]*?```/g, '')
    .matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#'));
  const readme = links('README.md');
  assert.ok(readme.filter((t) => t.startsWith('docs/')).length >= 10, readme.join(' '));
  const inside = (from, target) => join(dirname(from), target.split('#')[0]).replace(/\/$/, '');
  const dirs = new Set(files.map((f) => dirname(f)));
  const broken = [];
  for (const file of ['README.md', ...files.filter((f) => /^docs\/.*\.md$/.test(f))]) {
    for (const target of (file === 'README.md' ? readme : links(file))) {
      const path = inside(file, target);
      if (!files.includes(path) && !dirs.has(path)) broken.push(`${file}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules/onnx-wasm/package.json'), 'utf8'));
  assert.match(pkg.repository?.url ?? '', /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
  const repoUrl = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  assert.equal(pkg.homepage, `${repoUrl}#readme`);
  assert.equal(pkg.bugs?.url, `${repoUrl}/issues`);
});

// A page whose Content-Security-Policy lacks 'unsafe-eval' refuses both (tests/engines runs the
// entries under such a policy; this names the file and the line if one comes back).
test('no shipped JavaScript calls new Function or eval', () => {
  const found = [];
  for (const f of files.filter((x) => /\.(m|c)?js$/.test(x))) {
    readFileSync(join(app, 'node_modules/onnx-wasm', f), 'utf8').split('\n').forEach((line, i) => {
      const m = /\bnew\s+Function\s*\(|(?<![.\w$])eval\s*\(/.exec(line);
      if (m) found.push(`${f}:${i + 1}: ${line.slice(Math.max(0, m.index - 40), m.index + 60)}`);
    });
  }
  assert.deepEqual(found, []);
});

const gatherProgram = `const t = new o.Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
const [y] = o.runNode({ opType: 'Gather' }, [t, new o.Tensor('int64', [2n, 0n], [2])]);
console.log(JSON.stringify({ dims: y.dims, data: Array.from(y.data), module: o.runtime().module }));`;

test('installed: import runs a Gather', () => {
  writeFileSync(join(app, 'esm.mjs'), `import * as o from 'onnx-wasm';\nawait o.init();\n${gatherProgram}`);
  const r = JSON.parse(execFileSync(process.execPath, [join(app, 'esm.mjs')], { encoding: 'utf8' }));
  assert.deepEqual([r.dims, r.data], [[2, 2], [5, 6, 1, 2]]);
});

test('installed: require runs a Gather and loads a model', () => {
  const model = join(suiteRoots()['onnx-1.22'], 'node/test_gather_0/model.onnx');
  writeFileSync(join(app, 'cjs.cjs'), `const o = require('onnx-wasm');\n(async () => {\nawait o.init({ threads: false });\n${gatherProgram}
const s = await o.InferenceSession.create(${JSON.stringify(model)});
console.log(JSON.stringify(s.outputMetadata));
})();`);
  const [gather, meta] = execFileSync(process.execPath, [join(app, 'cjs.cjs')], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual([gather.dims, gather.data, gather.module], [[2, 2], [5, 6, 1, 2], 'onnx-wasm']);
  assert.deepEqual(meta, [{ name: 'y', isTensor: true, type: 'float32', shape: [3, 4, 3, 2] }]);
});

test('installed: import then require in one process: one instance (one init, the same classes)', () => {
  writeFileSync(join(app, 'both.mjs'), `import * as o from 'onnx-wasm';
import { createRequire } from 'node:module';
const r = createRequire(import.meta.url)('onnx-wasm');
await o.init({ threads: false });
const t = new r.Tensor('float32', [1, 2, 3], [3]);
let sameError = false;
try { o.runNode({ opType: 'Gather' }, [t, new o.Tensor('int64', [5n], [1])]); } catch (e) { sameError = e instanceof r.IndexOutOfRangeError; }
console.log(JSON.stringify({ same: Object.keys(o).filter((k) => o[k] !== r[k]), initialized: r.runtime() !== null, sameError }));`);
  const r = JSON.parse(execFileSync(process.execPath, [join(app, 'both.mjs')], { encoding: 'utf8' }));
  assert.deepEqual(r, { same: [], initialized: true, sameError: true });
});

test('installed: the onnx-wasm command', () => {
  const out = execFileSync(join(app, 'node_modules/.bin/onnx-wasm'), ['--help'], { encoding: 'utf8' });
  assert.match(out, /onnx-wasm inspect <model.onnx>/);
  const version = execFileSync(join(app, 'node_modules/.bin/onnx-wasm'), ['--version'], { encoding: 'utf8' });
  assert.equal(version, `onnx-wasm ${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version}\n`);
  const model = join(suiteRoots()['onnx-1.22'], 'node/test_gather_0/model.onnx');
  const inspected = execFileSync(join(app, 'node_modules/.bin/onnx-wasm'), ['inspect', model, '--threads=false'], { encoding: 'utf8' });
  assert.match(inspected, /^  0 Gather\(data, indices\) \{"axis":0\} -> y: float32 \[3, 4, 3, 2\]$/m);
});

test('declarations: the type test compiles against the installed package, through import and require', () => {
  const source = readFileSync(join(repo, 'tests/types/esm.mts'), 'utf8');
  writeFileSync(join(app, 'use.mts'), source);
  writeFileSync(join(app, 'use.cts'), asCommonJs(source));
  assert.deepEqual(compile([join(app, 'use.mts'), join(app, 'use.cts')]).diagnostics, []);
});
