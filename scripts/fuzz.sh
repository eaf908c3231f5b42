#!/usr/bin/env bash
# `npm run fuzz`: every fuzzer, time-bounded, with the counts printed.
#   bash scripts/fuzz.sh [SECONDS]   SECONDS per native target and for the model fuzzer (default 120)
# 1. the libFuzzer targets (native, ASan + UBSan): scripts/fuzz-native.sh --seconds SECONDS;
# 2. the model-loader fuzzer through InferenceSession (wasm): scripts/fuzz-models.mjs --seconds SECONDS.
# Exits non-zero on any finding; findings are saved under build/fuzz/artifacts/ and test-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
echo "== native libFuzzer targets, ${seconds} s each"
bash scripts/fuzz-native.sh --seconds "$seconds"
echo "== model-loader fuzzer, ${seconds} s"
node scripts/fuzz-models.mjs --seconds "$seconds"
