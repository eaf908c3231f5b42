// The packed package on every engine: `npm pack` of this repository installed into an empty folder,
// then one suite (tests/engines/suite.mjs) run by Node, Deno and Bun (`onnx-wasm` resolved from
// node_modules, as their users import it) and by Chromium and Firefox (an import map to the
// package's browser entry), each browser served plain (the one-thread module must be chosen) and
// cross-origin isolated (COOP/COEP: the threads module, and its workers must become ready). Each
// engine reports a JSON result: the module chosen and why, and every check (Gather with each
// kernel width, Reshape sharing memory, a model with external data, a typed error and recovery,
// dispose). The model and its weights.bin are built here once, from tests/engines/model-layout.mjs.
// Each browser also runs the suite with every entry (onnx-wasm, onnx-wasm/web, onnx-wasm/web-threads)
// under a strict Content-Security-Policy (no 'unsafe-eval', no inline script), and a control page
// that calls `new Function` under the same policy must fail there.
// The engine versions used are printed as diagnostics.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema, TensorProtoSchema,
} from 'onnx-buf';
import puppeteer from 'puppeteer-core';
import { STRICT_CSP, headSnippet, launchChromium, repo, serveDir, watchPage } from '../browser/support.mjs';
import { attribute, rawTensor, valueInfo } from '../support/gen-models.mjs';
import { LAYOUT } from './model-layout.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
// (Deno is installed by scripts/setup.sh --browser into .tools/: see there why not in package.json)
const bin = (name) => join(repo, name === 'deno' ? '.tools/node_modules/.bin' : 'node_modules/.bin', name);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-engines-'));
const app = join(tmp, 'app');
// With two cores or more, init() must choose the threads build wherever SharedArrayBuffer exists.
const threadsBuild = availableParallelism() >= 2 ? 'onnx-wasm-threads' : 'onnx-wasm';
const versions = {};
let browserEntry;

// model.onnx and weights.bin as model-layout.mjs describes them.
function buildModel() {
  const { rows, cols, offset, after: tail } = LAYOUT;
  const table = Float32Array.from({ length: rows * cols }, (_, i) => i * 1.25 - 7.5);
  const weights = new Uint8Array(offset + table.byteLength + tail).fill(0xee);
  weights.set(new Uint8Array(table.buffer), offset);
  const external = create(TensorProtoSchema, {
    name: 'table', dataType: 1, dims: [BigInt(rows), BigInt(cols)], dataLocation: 1,
    externalData: [['location', LAYOUT.file], ['offset', String(offset)], ['length', String(table.byteLength)]]
      .map(([key, value]) => create(StringStringEntryProtoSchema, { key, value })),
  });
  const shape = rawTensor('shape', 'int64', [2], { bytes: new Uint8Array(BigInt64Array.from([1n, -1n]).buffer) });
  const graph = create(GraphProtoSchema, {
    name: 'engines',
    node: [
      create(NodeProtoSchema, { name: 'gather', opType: 'Gather', input: ['table', 'ids'], output: ['rows'], attribute: [attribute('axis', 0)] }),
      create(NodeProtoSchema, { name: 'reshape', opType: 'Reshape', input: ['rows', 'shape'], output: ['flat'] }),
    ],
    input: [valueInfo('ids', 'int64', ['n'])],
    initializer: [external, shape],
    output: [valueInfo('flat', 'float32', null)],
  });
  const model = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n, producerName: 'onnx-wasm engine tests', graph,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 13n })],
  }));
  return { model, weights };
}

// The file a browser gets for `import 'onnx-wasm'`: the `browser` condition of exports['.'].
function resolveBrowserEntry(pkg) {
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (!target || typeof target !== 'object') return null;
    for (const condition of ['browser', 'import', 'default']) {
      const found = condition in target ? pick(target[condition]) : null;
      if (found) return found;
    }
    return null;
  };
  const entry = pick(pkg.exports?.['.'] ?? pkg.exports) ?? pkg.module;
  assert.ok(entry, 'package.json names no browser entry');
  return entry.replace(/^\.\//, '');
}

// Pages for the strict CSP, which allows no inline script (and so no import map): for each entry,
// suite-<name>.mjs imports it by path, run-page-<name>.mjs runs that suite, and the head snippet
// is a script file (snippet-<name>.js). csp-control.html calls `new Function`, which must fail.
const CSP_PAGES = [
  { name: 'index', entry: () => `./${browserEntry}`, label: "onnx-wasm (its browser entry)" },
  { name: 'web', entry: () => './node_modules/onnx-wasm/dist/onnx-wasm.web.mjs', wasm: 'onnx-wasm.wasm', label: 'onnx-wasm/web with the head snippet' },
  { name: 'web-threads', entry: () => './node_modules/onnx-wasm/dist/onnx-wasm-threads.web.mjs', wasm: 'threads/onnx-wasm-threads.wasm', label: 'onnx-wasm/web-threads with the head snippet' },
];
before(() => {
  mkdirSync(app);
  execFileSync('npm', ['pack', repo, '--pack-destination', tmp, '--silent'], { cwd: tmp, stdio: 'pipe' });
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'engines-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(tmp, tgz)], { cwd: app, stdio: 'pipe' });
  for (const f of ['suite.mjs', 'model-layout.mjs', 'run-cli.mjs', 'run-page.mjs']) copyFileSync(join(here, f), join(app, f));
  const { model, weights } = buildModel();
  writeFileSync(join(app, 'model.onnx'), model);
  writeFileSync(join(app, LAYOUT.file), weights);
  browserEntry = `node_modules/onnx-wasm/${resolveBrowserEntry(JSON.parse(readFileSync(join(app, 'node_modules/onnx-wasm/package.json'), 'utf8')))}`;
  writeFileSync(join(app, 'index.html'), `<!doctype html><meta charset="utf-8"><title>onnx-wasm engine suite</title><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({ imports: { 'onnx-wasm': `./${browserEntry}` } })}</script>
<script type="module" src="./run-page.mjs"></script><body></body>`);
  // The README's head snippet with the one-file entries of the tarball: snippet.html (one thread,
  // for the plain page) and snippet-threads.html (for the cross-origin isolated page).
  for (const [file, entry, wasm] of [['snippet.html', 'onnx-wasm.web.mjs', 'onnx-wasm.wasm'], ['snippet-threads.html', 'onnx-wasm-threads.web.mjs', 'threads/onnx-wasm-threads.wasm']]) {
    const dist = './node_modules/onnx-wasm/dist/';
    writeFileSync(join(app, file), `<!doctype html><html data-snippet="1"><meta charset="utf-8"><title>onnx-wasm engine suite, head snippet</title><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({ imports: { 'onnx-wasm': `${dist}${entry}` } })}</script>
${headSnippet(`${dist}${entry}`, `${dist}${wasm}`)}
<script type="module" src="./run-page.mjs"></script><body></body>`);
  }
  writeCspPages();
});

function writeCspPages() {
  const suite = readFileSync(join(here, 'suite.mjs'), 'utf8'), runPage = readFileSync(join(here, 'run-page.mjs'), 'utf8');
  for (const { name, entry, wasm } of CSP_PAGES) {
    const imports = suite.split("from 'onnx-wasm';");
    assert.equal(imports.length, 2, "suite.mjs imports 'onnx-wasm' once");
    writeFileSync(join(app, `suite-${name}.mjs`), imports.join(`from '${entry()}';`));
    writeFileSync(join(app, `run-page-${name}.mjs`), runPage.replace("from './suite.mjs';", `from './suite-${name}.mjs';`));
    if (wasm) writeFileSync(join(app, `snippet-${name}.js`), `const onnxWasmModule = WebAssembly.compileStreaming(fetch('./node_modules/onnx-wasm/dist/${wasm}'));\n`);
    writeFileSync(join(app, `csp-${name}.html`), `<!doctype html><html${wasm ? ' data-snippet="1"' : ''}><meta charset="utf-8"><title>onnx-wasm under a strict CSP</title><link rel="icon" href="./favicon.ico">
${wasm ? `<script src="./snippet-${name}.js"></script>` : ''}<script type="module" src="./run-page-${name}.mjs"></script><body></body>`);
  }
  writeFileSync(join(app, 'csp-control.mjs'), `let result;
try {
  result = { value: new Function('return 41 + 1')() };
} catch (e) {
  result = { error: \`\${e.name}: \${e.message}\` };
}
document.body.dataset.result = JSON.stringify(result);
`);
  writeFileSync(join(app, 'favicon.ico'), new Uint8Array(0));   // (a data: icon is itself refused by default-src 'self')
  writeFileSync(join(app, 'csp-control.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="./favicon.ico"><script type="module" src="./csp-control.mjs"></script><body></body>`);
}
after(() => {
  console.log(`engine versions used: ${JSON.stringify(versions)}`);
  // KEEP_ENGINE_APP=1 keeps the installed app folder, to rerun an engine by hand.
  if (process.env.KEEP_ENGINE_APP) console.log(`app folder kept: ${app}`);
  else rmSync(tmp, { recursive: true, force: true });
});

// What every engine must report: each pattern names one check, every check passed, and the module
// chosen is the expected one (with the threads build, its workers ready).
const EXPECTED_CHECKS = [/^Gather x8: /, /^Gather x16: /, /^Gather x32: /, /^Gather x64: /, /^Gather x128: complex128/,
  /^Gather slices/, /^Gather x32, 320 KB/, /^Reshape and Flatten share/, /^InferenceSession with external data from options/,
  /IndexOutOfRangeError \(ERR_INDEX\)/, /^a model run with an id out of range/, /^dispose: /];
function assertResult(t, r, { module, reasonPattern, fromPath }) {
  assert.equal(r.error, undefined, r.error);
  const failed = r.checks.filter((c) => !c.ok).map((c) => `${c.name}:\n${c.detail}`);
  assert.deepEqual(failed, [], `failed checks in ${r.engine}:\n${failed.join('\n')}`);
  for (const pattern of [...EXPECTED_CHECKS, ...(fromPath ? [/^InferenceSession from a path/] : [])])
    assert.ok(r.checks.some((c) => pattern.test(c.name)), `no check matching ${pattern} ran in ${r.engine}`);
  assert.equal(r.module, module, `${r.engine} chose ${r.module}: ${r.reason}`);
  if (reasonPattern) assert.match(r.reason, reasonPattern);
  assert.equal(r.simd, true, 'wasm SIMD build');
  assert.equal(r.threadsActive, module === 'onnx-wasm-threads', `threadsActive in ${r.engine}`);
  t.diagnostic(`${r.engine}: ${r.module} (${r.reason}); threads active: ${r.threadsActive}; ${r.checks.length} checks passed`);
}

// Command-line engines: `<engine> run-cli.mjs` in the app folder; the result line is parsed.
async function runCli(command, args, env = {}) {
  let out;
  try {
    out = await run(command, args, { cwd: app, timeout: 60000, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 1 << 24 });
  } catch (e) {
    throw new Error(`${command} ${args.join(' ')} failed (${e.code ?? e.signal}${e.killed ? ', killed after 60 s: did it not exit?' : ''}):\n${e.stdout}\n${e.stderr}`);
  }
  const line = out.stdout.split('\n').find((l) => l.startsWith('ENGINE-RESULT '));
  assert.ok(line, `no result from ${command}:\n${out.stdout}\n${out.stderr}`);
  return JSON.parse(line.slice('ENGINE-RESULT '.length));
}

const firstLine = (text) => text.trim().split('\n')[0];
const cliEngines = [
  { name: 'Node', command: process.execPath, args: ['run-cli.mjs'], version: () => `Node ${process.versions.node}` },
  {
    // Deno resolves bare specifiers from node_modules when the folder has a package.json; the
    // package needs no permission but reading its own files (and the model's).
    name: 'Deno', command: bin('deno'), args: ['run', '--no-prompt', `--allow-read=${app}`, 'run-cli.mjs'],
    env: { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(tmp, 'deno-dir') },
    version: () => firstLine(execFileSync(bin('deno'), ['--version'], { encoding: 'utf8' })),
  },
  { name: 'Bun', command: bin('bun'), args: ['run-cli.mjs'], version: () => `Bun ${firstLine(execFileSync(bin('bun'), ['--version'], { encoding: 'utf8' }))}` },
];

describe('command-line engines: onnx-wasm resolved from node_modules', () => {
  for (const engine of cliEngines) {
    test(engine.name, { timeout: 90000 }, async (t) => {
      if (!existsSync(engine.command)) { t.skip(`${engine.command} is not installed (npm ci installs it)`); return; }
      versions[engine.name] = engine.version();
      t.diagnostic(`version: ${versions[engine.name]}`);
      const r = await runCli(engine.command, engine.args, engine.env);
      assertResult(t, r, { module: threadsBuild, fromPath: true, reasonPattern: threadsBuild === 'onnx-wasm-threads' ? /SharedArrayBuffer are available/ : null });
    });
  }
});

// A page of the app folder at `url`; polls for the suite's result (the same way for playwright's
// and puppeteer's pages).
async function runPage(browser, url) {
  const page = await browser.newPage();
  const problems = watchPage(page);
  try {
    await page.goto(url);
    const deadline = Date.now() + 60000;
    let text;
    while (!(text = await page.evaluate(() => document.body?.dataset.result ?? null))) {
      if (Date.now() > deadline) throw new Error(`no result from the page after 60 s; page errors: ${problems.join('; ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { result: JSON.parse(text), problems };
  } finally {
    await page.close();
  }
}

const browsers = [
  { name: 'Chromium', executable: CHROMIUM, launch: launchChromium, version: async (b) => `Chromium ${b.version()}` },
  {
    name: 'Firefox', executable: FIREFOX,
    launch: () => puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi' }),
    version: async (b) => (await b.version()).replace(/^firefox\//, 'Firefox '),
  },
];

for (const spec of browsers) {
  describe(`${spec.name}: import map to the package's browser entry`, () => {
    let browser = null;
    let skip = null;
    const servers = {};
    before(async () => {
      if (!existsSync(spec.executable)) { skip = `${spec.executable} is not installed (scripts/setup.sh --browser installs it)`; return; }
      browser = await spec.launch();
      versions[spec.name] = await spec.version(browser);
      for (const isolated of [false, true]) {
        servers[isolated] = await serveDir(app, { isolated });
        servers[`csp ${isolated}`] = await serveDir(app, { isolated, csp: STRICT_CSP });
      }
    });
    // The browser first: a server's close() waits for the browser's keep-alive connections to end.
    after(async () => {
      await browser?.close();
      for (const server of Object.values(servers)) await server.close();
    });

    for (const isolated of [false, true]) {
      const module = isolated ? threadsBuild : 'onnx-wasm';
      test(isolated ? `cross-origin isolated (COOP/COEP): ${module}, workers ready` : 'plain page: onnx-wasm (one thread)', { timeout: 90000 }, async (t) => {
        if (skip) { t.skip(skip); return; }
        t.diagnostic(`version: ${versions[spec.name]}; entry: ${browserEntry}`);
        const { result, problems } = await runPage(browser, servers[isolated].url);
        assert.equal(result.crossOriginIsolated, isolated, 'crossOriginIsolated');
        assertResult(t, result, { module, reasonPattern: isolated ? /cross-origin isolated/ : /not cross-origin isolated/ });
        assert.deepEqual(problems, [], 'page errors');
      });
      test(`head snippet, ${isolated ? 'cross-origin isolated' : 'plain page'}: init({ wasmModule }) with the one-file entry, ${module}`, { timeout: 90000 }, async (t) => {
        if (skip) { t.skip(skip); return; }
        // (the threads snippet compiles the threads build: only where init() will choose it)
        const page = isolated && module === 'onnx-wasm-threads' ? 'snippet-threads.html' : 'snippet.html';
        const { result, problems } = await runPage(browser, `${servers[isolated].url}${page}`);
        assert.equal(result.crossOriginIsolated, isolated, 'crossOriginIsolated');
        assert.equal(result.loadedFrom, 'WebAssembly.Module passed by the caller');
        assertResult(t, result, { module, reasonPattern: isolated ? /cross-origin isolated/ : /one thread/ });
        assert.deepEqual(problems, [], 'page errors');
      });
      for (const { name, label } of CSP_PAGES) {
        // (the threads entry runs where it can: in the cross-origin isolated page)
        if (name === 'web-threads' && (!isolated || module !== 'onnx-wasm-threads')) continue;
        const expected = name === 'web' ? 'onnx-wasm' : module;
        test(`strict CSP, ${isolated ? 'cross-origin isolated' : 'plain page'}: ${label}, ${expected}`, { timeout: 90000 }, async (t) => {
          if (skip) { t.skip(skip); return; }
          const { result, problems } = await runPage(browser, `${servers[`csp ${isolated}`].url}csp-${name}.html`);
          assert.equal(result.crossOriginIsolated, isolated, 'crossOriginIsolated');
          assertResult(t, result, { module: expected });
          assert.deepEqual(problems, [], 'page errors (a CSP violation is one)');
        });
      }
    }
    test(`strict CSP control: a page calling new Function fails under ${STRICT_CSP}`, { timeout: 90000 }, async (t) => {
      if (skip) { t.skip(skip); return; }
      const { result } = await runPage(browser, `${servers['csp false'].url}csp-control.html`);
      assert.equal(result.value, undefined, 'new Function ran under the strict CSP: the CSP pages above prove nothing');
      assert.match(result.error, /^EvalError: /);
      t.diagnostic(`the control page got: ${result.error}`);
    });
  });
}
