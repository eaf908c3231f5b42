// Every ```js block of README.md and docs/ runs against the package (blocks.mjs has the
// convention): Node blocks in Node, each in its own process, in a folder with the fixtures the
// docs name (fixtures.mjs); browser blocks in Chromium, each in a fresh page served from that
// folder with an import map to the package's browser entry; fragments are listed as skipped with
// their reason. A block fails on an exception, a failed `// =>` or `// throws` check, or when it
// does not finish.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { launchChromium, serveDir, watchPage } from '../browser/support.mjs';
import { blocksOf, docFiles, kindOf, toModule } from './blocks.mjs';
import { makeFixtures } from './fixtures.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const blocks = docFiles(repo).flatMap((f) => blocksOf(repo, f)).filter((b) => b.lang === 'js').map((b) => ({ ...b, ...kindOf(b) }));
const name = (b) => `${b.file}:${b.line - 1}`;
const moduleName = (b) => `${b.file.replace(/[^\w]+/g, '-')}-${b.line}.mjs`;
const TIMEOUT = 60_000;

let dir;
before(() => { dir = makeFixtures(repo, join(here, 'check.mjs')); });
after(() => rmSync(dir, { recursive: true, force: true }));

test('the docs hold Node and browser examples, and every fragment gives a reason', () => {
  const count = (k) => blocks.filter((b) => b.kind === k).length;
  assert.ok(count('node') >= 10 && count('browser') >= 1, `${count('node')} Node blocks, ${count('browser')} browser blocks`);
  for (const b of blocks.filter((x) => x.kind === 'fragment')) assert.ok(b.reason.length >= 10, `${name(b)}: say why it is a fragment`);
});

// The report a block's last line prints (check.mjs), checked.
function assertReport(b, report, log) {
  assert.ok(report, `${name(b)} did not finish\n${log}`);
  assert.deepEqual(report.failures, [], `${name(b)}\n${log}`);
}

describe('Node blocks', { concurrency: 2 }, () => {
  for (const b of blocks.filter((x) => x.kind === 'node')) {
    test(name(b), async () => {
      const { source, checks } = toModule(b, './__doc-check.mjs');
      const file = join(dir, moduleName(b));
      writeFileSync(file, source);
      const { code, stdout, stderr } = await new Promise((ok) => execFile(process.execPath, [file], { cwd: dir, timeout: TIMEOUT, encoding: 'utf8' },
        (e, stdout, stderr) => ok({ code: e ? (e.code ?? e.signal) : 0, stdout, stderr })));
      const line = stdout.split('\n').find((l) => l.startsWith('__doc_example__ '));
      assert.equal(code, 0, `${name(b)} failed (run as ${file}):\n${stderr}${stdout}`);
      const report = line && JSON.parse(line.slice('__doc_example__ '.length));
      assertReport(b, report, stdout);
      assert.equal(report.checked, checks, `${name(b)}: every check ran`);
    });
  }
});

describe('browser blocks (Chromium)', () => {
  let browser, server;
  before(async () => {
    browser = await launchChromium();
    server = await serveDir(dir);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  const importMap = JSON.stringify({ imports: {
    'onnx-wasm': '/node_modules/onnx-wasm/dist/onnx-wasm.web.mjs',
    'onnx-wasm/web': '/node_modules/onnx-wasm/dist/onnx-wasm.web.mjs',
    'onnx-wasm/web-threads': '/node_modules/onnx-wasm/dist/onnx-wasm-threads.web.mjs',
  } });
  for (const b of blocks.filter((x) => x.kind === 'browser')) {
    test(name(b), async () => {
      const { source, checks } = toModule(b, '/__doc-check.mjs');
      const page = moduleName(b).replace(/\.mjs$/, '');
      writeFileSync(join(dir, `${page}.mjs`), source);
      writeFileSync(join(dir, `${page}.html`), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="importmap">${importMap}</script><script type="module" src="/${page}.mjs"></script>`);
      const context = await browser.newContext();
      try {
        const p = await context.newPage();
        const problems = watchPage(p);
        await p.goto(`${server.url}${page}.html`);
        const failed = new Promise((ok) => p.on('pageerror', () => ok(null)));
        const report = await Promise.race([p.waitForFunction(() => window.__docExample, null, { timeout: TIMEOUT }).then((h) => h.jsonValue()), failed])
          .catch(() => null);
        assert.deepEqual(problems, [], `${name(b)}: errors in the page`);
        assertReport(b, report, '');
        assert.equal(report.checked, checks, `${name(b)}: every check ran`);
      } finally {
        await context.close();
      }
    });
  }
});

describe('fragments (not run)', () => {
  for (const b of blocks.filter((x) => x.kind === 'fragment')) test(name(b), { skip: b.reason }, () => {});
});
