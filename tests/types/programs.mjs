// The type test's programs: tests/types/esm.mts as is, and as a CommonJS module; compiled with
// TypeScript under `moduleResolution: node16`. Used by types.test.mjs (against this folder's
// package, by its name) and tests/js/package.test.mjs (against the packed package, installed).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');

// The ES module program as a CommonJS one: imports kept, the rest inside an async function.
export function asCommonJs(source) {
  const importsEnd = source.indexOf("} from 'onnx-wasm';\n") + "} from 'onnx-wasm';\n".length;
  const exportsAt = source.lastIndexOf('\nexport {');
  assert.ok(importsEnd > 20 && exportsAt > importsEnd, 'esm.mts: imports first, `export { ... }` last');
  const names = source.slice(exportsAt + '\nexport {'.length, source.indexOf('};', exportsAt));
  return `// Written by tests/types/programs.mjs from tests/types/esm.mts. Do not edit.
${source.slice(0, importsEnd)}import required = require('onnx-wasm');
const viaRequire: typeof required.Tensor = required.Tensor;
async function main() {
${source.slice(importsEnd, exportsAt)}
return [${names}];
}
export { main, viaRequire };
`;
}

// { program, diagnostics: ['file:line: message'] } of a strict node16 compile of `files`.
export function compile(files) {
  const program = ts.createProgram(files, {
    noEmit: true, strict: true, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], skipLibCheck: false,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) =>
    `${d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  return { program, diagnostics };
}
