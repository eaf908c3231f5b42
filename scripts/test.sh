#!/usr/bin/env bash
# Every test: the C++ unit tests natively under ASan/UBSan and as wasm under Node (ctest), lint,
# the type check of js/ and bin/ (tsc -p tsconfig.check.json), a fixed-seed fuzzing pass,
# then the JS API tests (node --test), the type test and the doc examples, the browser tests (headless Chromium) and the engine suite
# (the packed package in Node, Deno, Bun, Chromium and Firefox). Expects scripts/build.sh --tests to have run.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== C++ unit tests, native with threads (AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake -S . -B build/native -DONNXWASM_SANITIZE=ON -DONNXWASM_THREADS=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build/native -j2
ctest --test-dir build/native --output-on-failure
echo "== C++ unit tests, wasm (SIMD kernels) under Node"
ctest --test-dir build/wasm --output-on-failure
echo "== Static analysis of src/ (clang-tidy, cppcheck)"
bash scripts/lint.sh
echo "== Type check of js/ and bin/ (tsc --checkJs)"
npx --no-install tsc -p tsconfig.check.json
echo "== Fuzzing, the fixed-seed pass (libFuzzer, ASan + UBSan; npm run fuzz for longer runs)"
bash scripts/fuzz-native.sh --quick
echo "== JS API tests"
node --test --test-reporter=spec tests/js/
echo "== Types (ESM and CommonJS under node16) and the examples of README.md and docs/ (Node, Chromium)"
node --test --test-reporter=spec tests/types/ tests/docs/
echo "== External data on the one-thread build (memory growth detaches views there, not with threads)"
ONNXWASM_TEST_INIT='{"threads":false}' node --test --test-reporter=dot tests/js/external-data.test.mjs
echo "== Browser tests: the playground, and the npm tarball without a bundler, with esbuild and with Vite (Chromium)"
node --test --test-reporter=spec --test-concurrency=1 tests/browser/
echo "== Engines: the packed package in Node, Deno, Bun, Chromium and Firefox"
node --test --test-reporter=spec --test-concurrency=1 tests/engines/
