// Exact text of Emscripten 3.1.6's glue that the build scripts edit (scripts/build-web.mjs,
// scripts/node-glue.mjs): each edit checks that its text is there, so that another Emscripten
// fails the build instead of shipping glue edited wrong. scripts/build-wasm.sh checks the version.

// The glue's test for Node, which the browser builds make the constant false.
export const NODE_ENV_DECL = 'var ENVIRONMENT_IS_NODE=typeof process=="object"&&typeof process.versions=="object"&&typeof process.versions.node=="string";';
// Its CommonJS/AMD export, at the end of the glue (not of the worker script): dead in an ES module,
// where bundlers warn about `module` and `exports`.
const EXPORT_FOOTER = /\nif \(typeof exports === 'object' && typeof module === 'object'\)\n {2}module\.exports = createOnnxWasmModule;\nelse if \(typeof define === 'function' && define\['amd'\]\)\n {2}define\(\[\], function\(\) \{ return createOnnxWasmModule; \}\);\nelse if \(typeof exports === 'object'\)\n {2}exports\["createOnnxWasmModule"\] = createOnnxWasmModule;\n/;

/**
 * The glue's text without its CommonJS/AMD export.
 * @param {string} text @param {string} file (for the error)
 */
export function withoutExportFooter(text, file) {
  if (!EXPORT_FOOTER.test(text)) throw new Error(`${file} does not end with Emscripten 3.1.6's CommonJS/AMD export footer`);
  return text.replace(EXPORT_FOOTER, '\n');
}
