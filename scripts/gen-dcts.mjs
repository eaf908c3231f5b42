// Writes js/index.d.cts, the declarations of `require('onnx-wasm')`, from js/index.d.ts, so that
// the CommonJS declarations are never a hand-kept copy that can miss a new export. Run by
// scripts/build.sh and `npm run docs` (after gen-constants.mjs: the error classes' docs are read
// from js/generated/types.d.ts). tests/types/ checks that both files declare every runtime export.
//
// Why the file looks as it does: in this "type": "module" package a .d.ts is an ES module, which a
// CommonJS file may not import; so the .d.cts imports the ESM declarations as types only
// ("resolution-mode": "import"), re-exports every type, and re-declares each value export with
// the type of the ESM one (a class also as a type, for `let t: Tensor`), in js/index.d.ts's order.
// Each value keeps the first sentence of its doc comment.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const parse = (file) => ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.ES2022, true);
const esm = parse('js/index.d.ts');

const exported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;
// The first sentence of a declaration's doc comment (up to a period outside parentheses), its
// {@link name}s as plain names: the names they link are not in scope in the .d.cts.
function summary(node, file) {
  const doc = node.jsDoc?.[0];
  const text = (doc ? ts.getTextOfJSDocComment(doc.comment) ?? '' : '').replace(/\{@link\s+([^\s|}]+)[^}]*\}/g, '$1').replace(/\s+/g, ' ').trim();
  if (!text) throw new Error(`gen-dcts: ${file}: the export ${node.name.text} has no doc comment`);
  let depth = 0;
  for (let i = 0; i < text.length; ++i) {
    if (text[i] === '(') ++depth;
    else if (text[i] === ')') --depth;
    else if (text[i] === '.' && depth === 0 && (i + 1 === text.length || text[i + 1] === ' ')) return text.slice(0, i + 1);
  }
  return text;
}
// A generic class's type parameters as the .d.cts writes them ({ names: '<T>', declared:
// '<T extends X.TensorType = X.TensorType>' with each type of js/index.d.ts named through the
// import), or null for a class that is not generic.
function typeParameters(node) {
  if (!node.typeParameters?.length) return null;
  const local = (text) => text.replace(/\b[A-Z]\w*\b/g, (name) => (typeNames.has(name) ? `${importType}.${name}` : name));
  const declared = node.typeParameters.map((p) => `${p.name.text}${p.constraint ? ` extends ${local(p.constraint.getText())}` : ''}${p.default ? ` = ${local(p.default.getText())}` : ''}`);
  return { names: `<${node.typeParameters.map((p) => p.name.text).join(', ')}>`, declared: `<${declared.join(', ')}>` };
}
// A module's value exports declared in it: name -> { isClass, generic, doc }.
function valuesOf(sf, file) {
  const values = new Map();
  for (const s of sf.statements) {
    if (!exported(s)) continue;
    if (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) {
      if (!values.has(s.name.text)) values.set(s.name.text, { isClass: ts.isClassDeclaration(s), generic: ts.isClassDeclaration(s) ? typeParameters(s) : null, doc: summary(s, file) });
    } else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) values.set(d.name.text, { isClass: false, doc: summary(s, file) });
    }
  }
  return values;
}

const importType = "import('./index.js', { with: { 'resolution-mode': 'import' } })";
// The names js/index.d.ts exports as types (its own declarations and its re-exports).
const typeNames = new Set(esm.statements.flatMap((s) => {
  if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) return s.exportClause.elements.map((e) => e.name.text);
  if (exported(s) && (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s))) return [s.name.text];
  return [];
}));

// js/index.d.ts's value exports in its order: its own declarations, and what it re-exports from
// another file (the generated error classes) where it re-exports them.
const own = valuesOf(esm, 'js/index.d.ts');
const values = [];
for (const s of esm.statements) {
  if (ts.isExportDeclaration(s) && !s.isTypeOnly && s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause)) {
    const from = join('js', s.moduleSpecifier.text.replace(/\.js$/, '.d.ts'));
    const theirs = valuesOf(parse(from), from);
    for (const e of s.exportClause.elements) {
      if (e.isTypeOnly || e.propertyName) throw new Error(`gen-dcts: js/index.d.ts: unexpected re-export ${e.getText()}`);
      const v = theirs.get(e.name.text);
      if (v) values.push({ name: e.name.text, ...v });
    }
  } else if (exported(s) && (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isVariableStatement(s))) {
    const names = ts.isVariableStatement(s) ? s.declarationList.declarations.map((d) => d.name.text) : [s.name.text];
    for (const name of names) if (!values.some((v) => v.name === name)) values.push({ name, ...own.get(name) });
  }
}
if (values.length < 20) throw new Error(`gen-dcts: found ${values.length} value exports in js/index.d.ts`);

const out = `// Generated by scripts/gen-dcts.mjs from js/index.d.ts. Do not edit.
// The declarations of js/index.d.ts for \`require('onnx-wasm')\` (TypeScript's node16/nodenext
// resolution picks this file through package.json's "types" → "require" condition). In this
// "type": "module" package a .d.ts is an ES module, which a CommonJS file may not import, so
// this file imports the ESM declarations as types only ("resolution-mode": "import") and
// re-declares each value export with that type. The docs are in js/index.d.ts; tests/types/
// checks that both files declare every runtime export.
type ESM = typeof ${importType};
export type * from './index.js' with { 'resolution-mode': 'import' };
${values.map(({ name, isClass, generic, doc }) => `/** ${doc} See js/index.d.ts. */
export declare const ${name}: ESM['${name}'];
${isClass ? `export type ${name}${generic?.declared ?? ''} = ${importType}.${name}${generic?.names ?? ''};\n` : ''}`).join('')}`;
writeFileSync(join(root, 'js', 'index.d.cts'), out);
