// The documentation's shape: README.md short and opening with `npm start` and `npm test`, every
// page the README links to present, every relative link of README.md, CHANGELOG.md and docs/
// resolving, CHANGELOG.md's newest version being package.json's, and the head snippet shown in
// the docs being the markup the browser tests run (tests/browser/support.mjs), and docs/cli.md
// showing the CLI's own --help.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { headSnippet } from '../browser/support.mjs';
import { blocksOf, docFiles } from './blocks.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (f) => readFileSync(join(repo, f), 'utf8');

test('README.md: at most 200 lines, opening with npm start and npm test', () => {
  const lines = read('README.md').split('\n');
  assert.ok(lines.length <= 200, `${lines.length} lines`);
  const first = blocksOf(repo, join(repo, 'README.md'))[0];
  assert.match(first.code, /^npm start\b.*\nnpm test\b/);
  assert.ok(first.line <= 5, 'the first block');
});

test('every relative link of README.md, CHANGELOG.md and docs/ resolves', () => {
  const broken = [];
  for (const file of [...docFiles(repo), join(repo, 'CHANGELOG.md')]) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target) || target.startsWith('#')) continue;
      if (!existsSync(resolve(dirname(file), target.split('#')[0]))) broken.push(`${file}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});

test("CHANGELOG.md's newest version is package.json's", () => {
  const newest = /^## \[(\d+\.\d+\.\d+[^\]]*)\]/m.exec(read('CHANGELOG.md'));
  assert.ok(newest, 'a version heading');
  assert.equal(newest[1], JSON.parse(read('package.json')).version);
});

test('the head snippet in README.md and docs/ is the one the browser tests run', () => {
  const squash = (s) => s.replace(/>\s+</g, '><').trim();
  const expected = squash(headSnippet('/node_modules/onnx-wasm/dist/onnx-wasm.web.mjs', '/node_modules/onnx-wasm/dist/onnx-wasm.wasm'));
  const shown = docFiles(repo).flatMap((f) => blocksOf(repo, f)).filter((b) => b.lang === 'html' && b.code.includes('compileStreaming'));
  assert.ok(shown.length >= 2, 'README.md and docs/browsers-and-bundlers.md show it');
  for (const b of shown) assert.ok(squash(b.code).startsWith(expected), `${b.file}:${b.line - 1}`);
});

test('docs/cli.md shows what `onnx-wasm --help` prints', () => {
  const help = execFileSync(process.execPath, [join(repo, 'bin/onnx-wasm.mjs'), '--help'], { encoding: 'utf8' }).trim();
  const shown = blocksOf(repo, join(repo, 'docs/cli.md')).find((b) => b.lang === 'text' && b.code.startsWith('usage:'));
  assert.equal(shown?.code.trim(), help);
});
