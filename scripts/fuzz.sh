#!/usr/bin/env bash
# Coverage-guided fuzzing of memcarlo's parsers (tests/fuzz): builds the libFuzzer harnesses with
# Debian's clang-16 under AddressSanitizer and UndefinedBehaviorSanitizer, replays every committed
# regression input, then fuzzes each harness for the given time from its committed seed corpus
# and prints executions, coverage and findings per harness.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/fuzz.sh [SECONDS] [options]

Builds the harnesses of tests/fuzz with clang++-16 (-fsanitize=fuzzer,address,undefined), runs
every input in tests/fuzz/regressions/<harness>/ once (each was a crash; it must not crash now),
then fuzzes each harness for SECONDS (default 60) starting from tests/fuzz/corpus/<harness>/,
with -rss_limit_mb=2048 and -malloc_limit_mb=2048 (an input that claims a huge size must be
refused before memory is allocated for it). Prints one table row per harness: executions,
executions per second, coverage (edges) and features at the end, corpus size, findings.

options:
  --only NAME        fuzz only this harness (repeatable): trace, hierarchy, ncu_csv, accelsim,
                     json_inputs
  --build-dir DIR    the clang build (default: build-fuzz in the repository)
  -o, --out DIR      where corpora grown by this run and findings go (default: out/fuzz); the
                     committed seeds are never modified
  --jobs N           harnesses fuzzed at once (default 1)
  --quick-build      build at -O0 instead of -O1: clang spends about a quarter of the CPU time
                     compiling (sim/src/hierarchy_schema.cpp: 12 s against 47 s), and the harnesses
                     run a few times slower; for a brief run such as CI's, where the build costs
                     more than the fuzzing (a separate build directory is best: switching
                     recompiles everything)
  -h, --help         this text

exit status: 0 no finding; 1 a regression input crashed again or fuzzing found a crash, leak,
timeout or out-of-memory input (saved as OUT/<harness>/crash-... etc.; commit it under
tests/fuzz/regressions/<harness>/ with the fix); 2 bad options, or clang-16 / libFuzzer missing
(apt-get install clang-16 libfuzzer-16-dev libclang-rt-16-dev).
EOF
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=60
build_dir=$root/build-fuzz
out_dir=$root/out/fuzz
jobs=1
opt=-O1
only=()
all=(trace hierarchy ncu_csv accelsim json_inputs)

die_usage() {
  echo "fuzz.sh: $1 (--help lists the options)" >&2
  exit 2
}

while (($# > 0)); do
  case $1 in
    --only) (($# >= 2)) || die_usage "$1 needs a harness name"; only+=("$2"); shift 2 ;;
    --build-dir) (($# >= 2)) || die_usage "$1 needs a directory"; build_dir=$2; shift 2 ;;
    -o | --out) (($# >= 2)) || die_usage "$1 needs a directory"; out_dir=$2; shift 2 ;;
    --jobs) (($# >= 2)) || die_usage "$1 needs a number"; jobs=$2; shift 2 ;;
    --quick-build) opt=-O0; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) die_usage "unknown option $1" ;;
    *) [[ $1 =~ ^[1-9][0-9]*$ ]] || die_usage "SECONDS must be a positive integer, not '$1'"
       seconds=$1; shift ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die_usage "--jobs must be a positive integer, not '$jobs'"
for name in ${only[@]+"${only[@]}"}; do
  printf '%s\n' "${all[@]}" | grep -qx "$name" || die_usage "no harness is named $name (${all[*]})"
done
harnesses=("${only[@]:-${all[@]}}")

command -v clang++-16 >/dev/null ||
  die_usage "clang++-16 is missing (apt-get install clang-16 libfuzzer-16-dev libclang-rt-16-dev)"
[[ -e /usr/lib/llvm-16/lib/libFuzzer.a ]] ||
  die_usage "libFuzzer is missing (apt-get install libfuzzer-16-dev libclang-rt-16-dev)"

# ---- Build ---------------------------------------------------------------------------------------
mkdir -p "$build_dir"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-16 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt -gline-tables-only" \
  ${launcher[@]+"${launcher[@]}"} -DMEMCARLO_FUZZ=ON \
  -DMEMCARLO_BUILD_TESTS=OFF -DMEMCARLO_BUILD_BENCH=OFF -DMEMCARLO_BUILD_INSTRUMENTER=OFF \
  -DMEMCARLO_BUILD_CUDA_BACKEND=OFF "-DMEMCARLO_SKIP_COMPONENTS=host;examples;cuda" \
  >"$build_dir/configure.log" 2>&1 || { cat "$build_dir/configure.log" >&2; exit 2; }
targets=()
for name in "${harnesses[@]}"; do
  targets+=("fuzz_$name")
done
ninja -C "$build_dir" "${targets[@]}"

# ---- Regressions: every input that once crashed must pass --------------------------------------
status=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for name in "${harnesses[@]}"; do
  dir=$root/tests/fuzz/regressions/$name
  [[ -d $dir ]] || continue
  mapfile -t inputs < <(find "$dir" -type f | sort)
  ((${#inputs[@]} > 0)) || continue
  if ! "$build_dir/tests/fuzz/fuzz_$name" -rss_limit_mb=2048 -malloc_limit_mb=2048 "${inputs[@]}" \
    >"$build_dir/regressions-$name.log" 2>&1; then
    echo "fuzz.sh: a regression input of $name fails again ($build_dir/regressions-$name.log):" >&2
    tail -n 20 "$build_dir/regressions-$name.log" >&2
    status=1
  else
    echo "fuzz.sh: $name: ${#inputs[@]} regression inputs pass"
  fi
done

# ---- Fuzz ----------------------------------------------------------------------------------------
run_one() {
  local name=$1 dir=$out_dir/$1
  mkdir -p "$dir/corpus"
  find "$dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) -delete
  local dict=()
  [[ -f $root/tests/fuzz/$name.dict ]] && dict=(-dict="$root/tests/fuzz/$name.dict")
  # The grown corpus first (libFuzzer adds new inputs to the first directory), then the seeds.
  "$build_dir/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -timeout=25 -print_final_stats=1 -artifact_prefix="$dir/" \
    ${dict[@]+"${dict[@]}"} "$dir/corpus" "$root/tests/fuzz/corpus/$name" >"$dir/fuzz.log" 2>&1 || true
}

mkdir -p "$out_dir"
running=0
for name in "${harnesses[@]}"; do
  echo "fuzz.sh: fuzzing $name for $seconds s"
  run_one "$name" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

printf '\n| harness | seconds | executions | exec/s | coverage (edges) | features | corpus | findings |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for name in "${harnesses[@]}"; do
  log=$out_dir/$name/fuzz.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(find "$out_dir/$name/corpus" "$root/tests/fuzz/corpus/$name" -type f | wc -l)
  findings=$(find "$out_dir/$name" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
    -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  if grep -q -E '^==[0-9]+==ERROR|deadly signal|SUMMARY: (Address|UndefinedBehavior)Sanitizer' "$log" &&
    ((findings == 0)); then
    findings=1  # a report without an artifact (should not happen; the log says what)
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$seconds" "${execs:-?}" \
    "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$findings"
  if ((findings > 0)); then
    echo "fuzz.sh: $name found $findings input(s); see $log and $out_dir/$name/" >&2
    grep -m 3 -E 'ERROR|SUMMARY|deadly' "$log" >&2 || true
    status=1
  fi
done
exit "$status"
