#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ natively (clang++-14, -fsanitize=fuzzer,address,undefined)
# and runs each one, time-bounded:
#   scripts/fuzz-native.sh                 every target for 60 s (--seconds N to change)
#   scripts/fuzz-native.sh --quick         the fixed-seed pass of npm test: -seed=1 and a fixed
#                                          number of runs per target, starting from the regression
#                                          inputs (and checked-in seeds, if any) only
#   scripts/fuzz-native.sh run_fuzzer ...  only the targets named (infer_fuzzer, run_fuzzer,
#                                          kernels_fuzzer; "infer", "run", "kernels" also work)
# First the fuzzers' findings as API tests (tests/fuzz-regressions/fuzz_findings_test.cpp, with
# the same sanitizers), then every input in tests/fuzz-regressions/<target>/ (inputs that once
# crashed) runs once.
# Fails (exit 1) on any crash, sanitizer report, broken invariant, leak, timeout (-timeout=10)
# or out-of-memory; the input is then in build/fuzz/artifacts/<target>/. Once the bug is fixed,
# copy that input into tests/fuzz-regressions/<target>/ with a name that says what it was, and
# add a test case of the same name to tests/fuzz-regressions/fuzz_findings_test.cpp (a fuzz input
# means something only to the fuzzer version that found it; the test case does not depend on it).
# The working corpus (not in git) grows in build/fuzz/corpus/<target>/; seeds checked in to
# fuzz/corpus/<target>/ would be read too (none are). Logs: build/fuzz/logs/<target>.log.
# Needs the Debian (bookworm) packages clang-14, libclang-rt-14-dev and catch2.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(infer_fuzzer run_fuzzer kernels_fuzzer)
# --quick: executions per target, sized so that the whole pass, an incremental build included,
# takes well under 2 minutes on 2 cores (the time per target: docs/performance.md, "Figures behind
# design choices").
declare -A QUICK_RUNS=([infer_fuzzer]=300000 [run_fuzzer]=200000 [kernels_fuzzer]=500000)

seconds=60
quick=0
jobs=${FUZZ_MAKE_JOBS:-2}
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --seconds=*) seconds="${1#--seconds=}"; shift ;;
    --quick) quick=1; shift ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    infer|run|kernels) targets+=("$1_fuzzer"); shift ;;
    infer_fuzzer|run_fuzzer|kernels_fuzzer) targets+=("$1"); shift ;;
    *) echo "fuzz-native.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz-native.sh: --seconds must be a positive integer, got '$seconds'" >&2
  exit 2
fi

CXX=${CXX:-clang++-14}
if ! command -v "$CXX" >/dev/null; then
  echo "fuzz-native.sh: $CXX not found; install clang-14 and libclang-rt-14-dev" >&2
  exit 1
fi

OUT=build/fuzz
start=$(date +%s)
echo "== fuzz: building ${ALL_TARGETS[*]} fuzz_findings_test ($CXX, ASan + UBSan + libFuzzer) in $OUT"
nice -n 10 make --no-print-directory -s -f fuzz/Makefile OUT="$OUT" CXX="$CXX" -j"$jobs"
mkdir -p "$OUT/logs"

# Any of these in a log is a failure even if the exit status were 0.
REPORT='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|ERROR: libFuzzer|FUZZ INVARIANT BROKEN|ALARM: working on the last Unit'
COMMON=(-timeout=10 -rss_limit_mb=2048 -max_len=4096)
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()
total_runs=0

# Prints the end of a failed log and where the crashing input went.
show_failure() {
  local t=$1 log=$2
  echo "---- $t: last lines of $log"
  grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|NEW_FUNC' "$log" | tail -n 40 | sed 's/^/  /'
  echo "---- crashing inputs (if any) in $OUT/artifacts/$t/:"
  ls -1 "$OUT/artifacts/$t/" 2>/dev/null | sed 's/^/  /' || true
}

# 0. The findings as tests of the C++ API (tests/fuzz-regressions/fuzz_findings_test.cpp).
if "$OUT/fuzz_findings_test" >"$OUT/logs/fuzz_findings_test.log" 2>&1 &&
   ! grep -q -E "$REPORT" "$OUT/logs/fuzz_findings_test.log"; then
  echo "ok   fuzz_findings_test: $(grep -a -o -E '[0-9]+ assertions? in [0-9]+ test cases?' "$OUT/logs/fuzz_findings_test.log")"
else
  echo "FAIL fuzz_findings_test"
  tail -n 40 "$OUT/logs/fuzz_findings_test.log" | sed 's/^/  /'
  failed+=("fuzz_findings_test")
fi

for t in "${targets[@]}"; do
  bin="$OUT/$t"
  log="$OUT/logs/$t.log"
  regress="tests/fuzz-regressions/$t"
  seeds="fuzz/corpus/$t"
  mkdir -p "$OUT/artifacts/$t"
  artifacts=(-artifact_prefix="$OUT/artifacts/$t/")

  # 1. The regression inputs, each once.
  mapfile -t inputs < <(find "$regress" -type f ! -name '*.md' 2>/dev/null | sort)
  if [ ${#inputs[@]} -gt 0 ]; then
    if ! "$bin" "${COMMON[@]}" "${artifacts[@]}" "${inputs[@]}" >"$log" 2>&1 || grep -q -E "$REPORT" "$log"; then
      echo "FAIL $t: a regression input in $regress crashes again"
      show_failure "$t" "$log"
      failed+=("$t")
      continue
    fi
    echo "ok   $t: ${#inputs[@]} regression inputs"
  fi

  # 2. Fuzzing, from the seeds and regression inputs (read only) into a writable corpus.
  if [ "$quick" = 1 ]; then
    corpus="$tmp/$t"
    budget=(-seed=1 -runs="${QUICK_RUNS[$t]}")
  else
    corpus="$OUT/corpus/$t"
    budget=(-max_total_time="$seconds")
  fi
  mkdir -p "$corpus"
  dirs=("$corpus")
  [ -d "$seeds" ] && dirs+=("$seeds")
  [ -d "$regress" ] && dirs+=("$regress")
  rc=0
  nice -n 10 "$bin" "${COMMON[@]}" "${artifacts[@]}" -print_final_stats=1 "${budget[@]}" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1 || true)
  if [ "$rc" != 0 ] || [ -z "$done_line" ] || grep -q -E "$REPORT" "$log"; then
    echo "FAIL $t (exit status $rc)"
    show_failure "$t" "$log"
    failed+=("$t")
    continue
  fi
  runs=$(sed -E 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\1/' <<<"$done_line")
  secs=$(sed -E 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\2/' <<<"$done_line")
  rate=$(grep -E '^stat::average_exec_per_sec:' "$log" | awk '{print $2}' | tail -n 1)
  cov=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | grep -o -E 'cov: [0-9]+ ft: [0-9]+' | tail -n 1 || true)
  seed=$(grep -o -E 'Seed: [0-9]+' "$log" | head -n 1 | awk '{print $2}')
  total_runs=$((total_runs + runs))
  printf 'ok   %-15s %10s runs in %4s s, %6s exec/s (%s, seed %s)\n' "$t" "$runs" "$secs" "${rate:-?}" "${cov:-cov ?}" "$seed"
done

echo "== fuzz: $total_runs executions in total, $(($(date +%s) - start)) s including the build"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
