#!/usr/bin/env bash
# Builds the wasm modules into dist/: onnx-wasm (wasm SIMD) and onnx-wasm-nosimd (for engines
# without SIMD), each as .wasm + CommonJS glue (.cjs, for Node) + ES module glue (.mjs, for
# browsers and bundlers). With --tests, also the Catch2 tests as wasm (build/wasm/unit_tests.js).
set -euo pipefail
cd "$(dirname "$0")/.."
# Emscripten 3.1.6 exactly (Debian's): these files rely on its internals, not on its public API,
# and another version may fail in any of them, or build a module that fails at run time: stop here.
emscripten_required=3.1.6
emscripten_found=$(em++ --version 2>/dev/null | head -n 1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1 || true)
if [ "$emscripten_found" != "$emscripten_required" ]; then
  cat >&2 <<EOF
build-wasm.sh: Emscripten $emscripten_required is required; em++ is ${emscripten_found:-missing or printed no version}.
These files depend on Emscripten $emscripten_required internals and must be ported before another version builds:
  bindings/embind-invoker.js     replaces Embind's \$craftInvokerFunction (its arguments and helpers as in 3.1.6)
  bindings/embind.cpp            registers the int64/uint64 memory views by hand (_embind_register_memory_view,
                                 ids 8 and 9 of 3.1.6's typed-array table, which has no 64-bit views)
  scripts/patch-threads-glue.mjs edits the exact text of 3.1.6's pthreads glue and worker script
  scripts/glue-text.mjs          the glue's exact text that scripts/build-web.mjs and scripts/node-glue.mjs edit;
                                 node-glue.mjs gives the glue's Node branch what it reads of CommonJS (__dirname, __filename, require)
  js/thread-pool.mjs             starts the threads build's workers through Module.PThread
                                 (allocateUnusedWorker, unusedWorkers, loadWasmModuleToWorker)
EOF
  exit 1
fi
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there
tests=OFF; [ "${1:-}" = "--tests" ] && tests=ON
mkdir -p dist
build() {  # build dir, SIMD ON/OFF, output name, tests ON/OFF
  emcmake cmake -S . -B "$1" -DONNXWASM_SIMD="$2" -DONNXWASM_SUFFIX="${3#onnx-wasm}" -DONNXWASM_TESTS="$4" >/dev/null
  cmake --build "$1" -j2
  cp "$1/$3.wasm" dist/
  cp "$1/$3.js" "dist/$3.cjs"   # CommonJS glue: the package is "type": "module"
  # ES module glue: the same glue with an ESM export (its Node-only code never runs in a browser).
  { cat "$1/$3.js"; echo; echo 'export default createOnnxWasmModule;'; } > "dist/$3.mjs"
}
build build/wasm ON onnx-wasm "$tests"
build build/wasm-nosimd OFF onnx-wasm-nosimd OFF
# The pthreads build lives in dist/threads/, marked CommonJS: its worker script and the glue that
# the workers load are classic scripts (required in Node, loaded as scripts in browsers).
emcmake cmake -S . -B build/wasm-threads -DONNXWASM_THREADS=ON -DONNXWASM_SUFFIX=-threads -DONNXWASM_TESTS=OFF >/dev/null
# (its warning that pthreads + memory growth makes JS access slower is filtered; a failure still fails)
cmake --build build/wasm-threads -j2 2>&1 | { grep -v "Wpthreads-mem-growth" || true; }
mkdir -p dist/threads
cp build/wasm-threads/onnx-wasm-threads.{js,wasm,worker.js} dist/threads/
node scripts/patch-threads-glue.mjs dist/threads/onnx-wasm-threads.js
echo '{ "type": "commonjs" }' > dist/threads/package.json
{ cat dist/threads/onnx-wasm-threads.js; echo; echo 'export default createOnnxWasmModule;'; } > dist/threads/onnx-wasm-threads.mjs
node scripts/gen-constants.mjs
