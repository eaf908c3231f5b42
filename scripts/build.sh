#!/usr/bin/env bash
# Builds everything the package and the tests use: the wasm modules and their glue (dist/),
# the generated JS constants, and the CommonJS entry (dist/index.cjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh "$@"
node scripts/build-node.mjs   # dist/index.mjs and dist/index.cjs, Node's entries (see there)
node scripts/share-instance.mjs   # import and require in one process: one instance (see there)
# Browser entries of one file each (wrapper + glue, .wasm fetched at import): dist/onnx-wasm.web.mjs
# and dist/onnx-wasm-threads.web.mjs, as 'onnx-wasm/web' and 'onnx-wasm/web-threads'.
node scripts/build-web.mjs
node scripts/gen-dcts.mjs   # js/index.d.cts, the declarations for require(), from js/index.d.ts
node scripts/node-glue.mjs   # the glue as Node loads it: ES module copies, and the classic scripts minified (see there)
