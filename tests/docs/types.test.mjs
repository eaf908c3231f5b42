// Every ```js block of README.md and docs/ that runs (blocks.mjs: Node and browser blocks, not
// fragments) type-checks as TypeScript under `strict`, against the package's declarations, as a
// user who pastes it into a .mts file of a strict TypeScript project gets it: each block is
// written to build/docs-types/ (inside the package, so that 'onnx-wasm' resolves to this
// package by its name, through package.json's "exports") and compiled with the type test's
// settings (tests/types/programs.mjs: node16, strict) and Node's and the DOM's types. An error is
// reported at its line in the doc.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { blocksOf, docFiles, kindOf } from './blocks.mjs';

const ts = createRequire(import.meta.url)('typescript');
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(repo, 'build', 'docs-types');

test('every Node and browser block of README.md and docs/ type-checks under strict', () => {
  const blocks = docFiles(repo).flatMap((f) => blocksOf(repo, f)).filter((b) => b.lang === 'js' && kindOf(b).kind !== 'fragment');
  assert.ok(blocks.length >= 12, `${blocks.length} blocks`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const where = new Map();
  for (const b of blocks) {
    const file = join(out, `${b.file.replace(/[^\w]+/g, '-')}-${b.line}.mts`);
    // (`export {}`: a block with no import is still a module, where top-level await is allowed)
    writeFileSync(file, `${b.code}\nexport {};\n`);
    where.set(file, b);
  }
  const program = ts.createProgram([...where.keys()], {
    noEmit: true, strict: true, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: ['node'], skipLibCheck: true,
    typeRoots: [join(repo, 'node_modules', '@types')],
  });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const b = d.file && where.get(d.file.fileName);
    const at = b ? `${b.file}:${b.line + d.file.getLineAndCharacterOfPosition(d.start).line}` : d.file?.fileName ?? '';
    return `${at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.deepEqual(errors, []);
});
