// Makes dist/index.mjs (`import 'onnx-wasm'` in Node) and dist/index.cjs (`require('onnx-wasm')`)
// one instance in a process that loads both: two bundles of the same code would otherwise each
// have their own module state (a second init(), another wasm memory) and their own classes (an
// error of one not `instanceof` the other's, a Tensor of one refused by the other's runNode). The
// first bundle loaded registers its exports under Symbol.for('onnx-wasm@<version>') on
// globalThis; each bundle exports what is registered there, so the second one loaded exports the
// first one's functions and classes (its own code is loaded but unused). Another version of the
// package has another key, and stays apart. Run by scripts/build.sh after esbuild.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const key = `Symbol.for(${JSON.stringify(`onnx-wasm@${version}`)})`;
const note = '// (scripts/share-instance.mjs: one instance for import and require in one process)';

// Both bundles are minified (whitespace and syntax, names kept: scripts/build.sh) and end with
// their source map's comment, which stays last; the code before what is changed here keeps its
// place, so the map still holds for it.
/** @param {string} text @returns {[string, string]} the text before its source map comment, and the comment */
function splitMapComment(text) {
  const m = /\n\/\/# sourceMappingURL=\S+\s*$/.exec(text);
  return m ? [text.slice(0, m.index), m[0].trim()] : [text, ''];
}

// ES module: esbuild's last statement, `export{a,b as c,...};`, exports the registered ones.
const esmFile = join(root, 'dist', 'index.mjs');
const [esm, esmMap] = splitMapComment(readFileSync(esmFile, 'utf8'));
const last = /(?<=^|[\n;}])export\s*\{([^}]*)\};?\s*$/.exec(esm);   // (after what ends the statement before)
if (!last) throw new Error('share-instance: dist/index.mjs does not end with an export list');
const names = last[1].split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
  const [local, exported = local] = s.split(/\s+as\s+/);
  return { local, exported };
});
writeFileSync(esmFile, `${esm.slice(0, last.index)}
${note}
var __onnxWasmShared = globalThis[${key}] ??= Object.freeze({ ${names.map(({ local, exported }) => `${exported}: ${local}`).join(', ')} });
var { ${names.map(({ exported }) => `${exported}: __shared_${exported}`).join(', ')} } = __onnxWasmShared;
export { ${names.map(({ exported }) => `__shared_${exported} as ${exported}`).join(', ')} };
${esmMap}
`);

// CommonJS: module.exports becomes the registered exports (registered from its own if first).
const cjsFile = join(root, 'dist', 'index.cjs');
const [cjs, cjsMap] = splitMapComment(readFileSync(cjsFile, 'utf8'));
if (!/module\.exports\s*=\s*__toCommonJS\(/.test(cjs)) throw new Error('share-instance: dist/index.cjs has no module.exports = __toCommonJS(...)');
writeFileSync(cjsFile, `${cjs}
${note}
{
  const own = module.exports;
  const shared = globalThis[${key}] ??= Object.freeze(Object.fromEntries(Object.keys(own).filter((k) => k !== '__esModule').map((k) => [k, own[k]])));
  module.exports = Object.defineProperty({ ...shared }, '__esModule', { value: true });
}
${cjsMap}
`);
