#!/usr/bin/env bash
# Installs what building and testing need, when it is missing: Debian's emscripten (em++),
# cmake, g++, Catch2 and the ONNX 1.12 test data, and the npm packages; with --browser Chromium and Firefox ESR,
# with --fuzz clang-14 and its libFuzzer runtime, with --lint clang-tidy-14 and cppcheck. Idempotent and quick
# when everything is there. Runs as root (or with sudo) on Debian bookworm.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v em++ >/dev/null || need+=(emscripten)
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
[ -f /usr/include/catch2/catch.hpp ] || need+=(catch2)
[ -d /usr/share/libonnx-testdata/data ] || need+=(libonnx-testdata)
for extra in "$@"; do
  case "$extra" in
    --browser)
      command -v chromium >/dev/null || need+=(chromium)
      command -v firefox-esr >/dev/null || need+=(firefox-esr) ;;
    --fuzz)
      command -v clang++-14 >/dev/null || need+=(clang-14)
      [ -n "$(ls /usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || need+=(libclang-rt-14-dev) ;;
    --lint)
      command -v clang-tidy-14 >/dev/null || need+=(clang-tidy-14)
      command -v cppcheck >/dev/null || need+=(cppcheck) ;;
  esac
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing ${need[*]} with apt-get"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# npm packages: install when node_modules is missing or older than the lock file. A node_modules
# that is a symlink (a git worktree sharing another checkout's) is left alone: npm ci would empty
# the folder it points to, under the other checkout.
if [ -L node_modules ]; then
  echo "setup: node_modules is a symlink to $(readlink node_modules): not installing through it"
elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error
fi
# Deno, for the engine suite: from npm, but outside package.json. Its package lists a binary for
# every platform as an optional dependency, which a lock file must then list too, and this
# registry serves only @deno/linux-x64-glibc (npm ci refused the lock). Kept in .tools/ (not in git).
if [[ " $* " == *" --browser "* ]] && [ ! -x .tools/node_modules/.bin/deno ]; then
  echo "setup: deno into .tools/"
  npm install --prefix .tools --no-save --no-package-lock --no-audit --no-fund --loglevel=error deno@^2.9.6
fi
