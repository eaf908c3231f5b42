#!/usr/bin/env bash
# Builds everything the package and the tests use: the wasm modules and their glue (dist/),
# the generated JS constants, and the CommonJS entry (dist/index.cjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh "$@"
# Node's ESM entry: the wrapper as one file, which imports faster than js/'s modules one by one,
# its whitespace, comments and syntax minified, which V8 parses faster (names kept, for stack
# traces; a source map beside it, for --enable-source-maps and debuggers, pointing into js/, which
# the package ships; docs/performance.md, "Figures behind design choices"). The glue files stay
# separate, imported when needed.
npx --no-install esbuild js/index.mjs --bundle --platform=node --format=esm --log-level=warning --minify-whitespace --minify-syntax --sourcemap --sources-content=false \
  --outfile=dist/index.mjs --external:../dist/onnx-wasm.mjs --external:../dist/onnx-wasm-nosimd.mjs --external:../dist/threads/onnx-wasm-threads.mjs
# CommonJS entry for require('onnx-wasm'): the ESM wrapper bundled, with import.meta.url mapped.
npx --no-install esbuild js/index.mjs --bundle --platform=node --format=cjs --log-level=warning --minify-whitespace --minify-syntax --sourcemap --sources-content=false \
  --outfile=dist/index.cjs --external:../dist/onnx-wasm.mjs --external:../dist/onnx-wasm-nosimd.mjs --external:../dist/threads/onnx-wasm-threads.mjs --define:import.meta.url=__onnxWasmImportMetaUrl \
  "--banner:js=const __onnxWasmImportMetaUrl = require('url').pathToFileURL(__filename).href;"
# Browser entries of one file each (wrapper + glue, .wasm fetched at import): dist/onnx-wasm.web.mjs
# and dist/onnx-wasm-threads.web.mjs, as 'onnx-wasm/web' and 'onnx-wasm/web-threads'.
node scripts/share-instance.mjs   # import and require in one process: one instance (see there)
node scripts/build-web.mjs
node scripts/gen-dcts.mjs   # js/index.d.cts, the declarations for require(), from js/index.d.ts
node scripts/node-glue.mjs   # the glue as Node loads it: ES module copies, and the classic scripts minified (see there)
