#!/usr/bin/env bash
# Static analysis of the C++ in src/ (src/*.cpp, src/ops/*.cpp, src/kernels/*.cpp):
#  - clang-tidy-14 with .clang-tidy (every warning an error), natively with the compile commands
#    of a native CMake build with threads (build/lint/compile_commands.json), and once more for
#    each src/kernels/*_wasmsimd.cpp as wasm32 with SIMD (natively they compile to stubs), with
#    Emscripten's flags (em++ --cflags);
#  - cppcheck (--enable=warning,performance,portability, --inline-suppr, .cppcheck-suppressions)
#    on the same compile commands, and on the *_wasmsimd.cpp files with __wasm_simd128__ defined.
# Exits non-zero on any finding. Needs the Debian packages clang-tidy-14 (or clang-tidy), cppcheck
# and cmake, and emscripten for the wasm pass.
set -euo pipefail
cd "$(dirname "$0")/.."

TIDY=${CLANG_TIDY:-clang-tidy-14}
command -v "$TIDY" >/dev/null || TIDY=clang-tidy
missing=()
for tool in "$TIDY" cppcheck cmake em++; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "lint.sh: missing ${missing[*]} (Debian: apt-get install clang-tidy cppcheck cmake emscripten)" >&2
  exit 1
fi
jobs=${LINT_JOBS:-2}

cmake -S . -B build/lint -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DONNXWASM_TESTS=OFF -DONNXWASM_THREADS=ON \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
files=(src/*.cpp src/ops/*.cpp src/kernels/*.cpp)
failed=()

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# clang-tidy's findings, without its "N warnings generated." (those are in system headers, not shown).
show() { grep -v -E '^[0-9]+ warnings? generated\.$' "$log" || true; }

echo "== clang-tidy ($("$TIDY" --version | grep -o -m1 'version [0-9.]*')): ${#files[@]} files, native"
if ! printf '%s\n' "${files[@]}" | nice xargs -P "$jobs" -n 1 "$TIDY" -p build/lint --quiet >"$log" 2>&1; then
  failed+=("clang-tidy")
fi
show

# Emscripten's target, sysroot and defines; SIMD and bulk memory as CMakeLists.txt builds the module.
read -r -a em_flags <<<"$(em++ --cflags 2>/dev/null)"
simd_files=(src/kernels/*_wasmsimd.cpp)
echo "== clang-tidy: ${simd_files[*]} as wasm32 + SIMD"
for f in "${simd_files[@]}"; do
  if ! nice "$TIDY" --quiet "$f" -- "${em_flags[@]}" -msimd128 -mbulk-memory -std=c++17 -I. >"$log" 2>&1; then
    failed+=("clang-tidy (wasm: $f)")
  fi
  show
done

CPPCHECK=(cppcheck --enable=warning,performance,portability --inline-suppr --error-exitcode=1 --std=c++17
          --quiet --suppressions-list=.cppcheck-suppressions
          --template='{file}:{line}:{column}: {severity}: {message} [{id}]')
echo "== cppcheck ($(cppcheck --version)): native"
if ! nice "${CPPCHECK[@]}" -j "$jobs" --project=build/lint/compile_commands.json; then
  failed+=("cppcheck")
fi
echo "== cppcheck: ${simd_files[*]} with __wasm_simd128__"
if ! nice "${CPPCHECK[@]}" -I. -D__wasm_simd128__ -D__EMSCRIPTEN__ "${simd_files[@]}"; then
  failed+=("cppcheck (wasm)")
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "lint: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "lint: clean"
