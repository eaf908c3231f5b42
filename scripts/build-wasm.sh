#!/usr/bin/env bash
# Builds the wasm module into dist/ (and the Catch2 tests as wasm when $1 = --tests).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there
tests=OFF; [ "${1:-}" = "--tests" ] && tests=ON
emcmake cmake -S . -B build/wasm -DONNXWASM_TESTS=$tests >/dev/null
cmake --build build/wasm -j2
mkdir -p dist
cp build/wasm/onnx-wasm.wasm dist/
cp build/wasm/onnx-wasm.js dist/onnx-wasm.cjs   # CommonJS glue: the package is "type": "module"
node scripts/gen-constants.mjs
# ES module glue for browsers and bundlers: the same glue with an ESM export (no Node code runs there).
{ cat build/wasm/onnx-wasm.js; echo; echo 'export default createOnnxWasmModule;'; } > dist/onnx-wasm.mjs
