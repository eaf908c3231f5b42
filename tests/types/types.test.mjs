// The type test: tests/types/esm.mts (every export and option of onnx-wasm, and wrong calls
// marked @ts-expect-error) compiles under `moduleResolution: node16` as an ES module, and the same
// program as a CommonJS module (written to build/types-test/cjs.cts, its body wrapped in an async
// function since CommonJS has no top-level await). Both import 'onnx-wasm' by name, so
// package.json's "exports" picks js/index.d.ts for import and js/index.d.cts for require. Then:
// every runtime export (of import and of require) is declared in both, and every export has a
// doc comment. An unused @ts-expect-error is itself an error, so a wrong call that compiles fails.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import { asCommonJs, compile } from './programs.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const ts = require('typescript');
const esmFile = join(repo, 'tests/types/esm.mts');
const cjsFile = join(repo, 'build/types-test/cjs.cts');

let program, diagnostics;
before(() => {
  mkdirSync(dirname(cjsFile), { recursive: true });
  writeFileSync(cjsFile, asCommonJs(readFileSync(esmFile, 'utf8')));
  ({ program, diagnostics } = compile([esmFile, cjsFile]));
});

test('both programs compile, and every @ts-expect-error line is an error', () => {
  assert.deepEqual(diagnostics, []);
  const expected = readFileSync(esmFile, 'utf8').match(/@ts-expect-error/g).length;
  assert.ok(expected >= 5, `${expected} wrong calls`);
});

test('import reads js/index.d.ts and require reads js/index.d.cts', () => {
  const resolved = (file) => {
    const sf = program.getSourceFile(file);
    const spec = sf.statements.find((s) => ts.isImportDeclaration(s)).moduleSpecifier;
    return program.getTypeChecker().getSymbolAtLocation(spec).valueDeclaration.fileName;
  };
  assert.equal(program.getSourceFile(cjsFile).impliedNodeFormat, ts.ModuleKind.CommonJS);
  assert.equal(program.getSourceFile(esmFile).impliedNodeFormat, ts.ModuleKind.ESNext);
  assert.equal(resolved(esmFile), join(repo, 'js/index.d.ts'));
  assert.equal(resolved(cjsFile), join(repo, 'js/index.d.cts'));
});

const declaredExports = (file) => {
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(file);
  const spec = sf.statements.find((s) => ts.isImportDeclaration(s)).moduleSpecifier;
  return checker.getExportsOfModule(checker.getSymbolAtLocation(spec));
};
const isValue = (s) => {
  const target = s.flags & ts.SymbolFlags.Alias ? program.getTypeChecker().getAliasedSymbol(s) : s;
  return (target.flags & ts.SymbolFlags.Value) !== 0;
};

test('every runtime export is declared, for import and for require, and nothing else as a value', async () => {
  const esmRuntime = Object.keys(await import('../../js/index.mjs')).sort();
  const cjsRuntime = Object.keys(require('../../dist/index.cjs')).filter((k) => k !== '__esModule').sort();
  assert.deepEqual(cjsRuntime, esmRuntime);
  for (const file of [esmFile, cjsFile]) {
    const values = declaredExports(file).filter(isValue).map((s) => s.name).sort();
    assert.deepEqual(values, esmRuntime, file);
  }
  const typesOf = (file) => declaredExports(file).filter((s) => !isValue(s)).map((s) => s.name).sort();
  assert.deepEqual(typesOf(cjsFile), typesOf(esmFile), 'the same types for require as for import');
});

test('every export of js/index.d.ts has a doc comment', () => {
  const checker = program.getTypeChecker();
  const undocumented = declaredExports(esmFile).filter((s) => {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '';
  }).map((s) => s.name);
  assert.deepEqual(undocumented, []);
});
