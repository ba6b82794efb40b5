#!/usr/bin/env bash
# The test command of the README and of CI: installs what is needed, runs the README's first
# command (scripts/demo.sh) as a newcomer would, then builds and runs every test in the same build
# directory, then runs the suites again built with AddressSanitizer and UndefinedBehaviorSanitizer.
# Every option the tests rely on is set explicitly (a build directory configured by the demo, with
# tests off, must not leave them off), and every ctest call fails when it finds no tests.
# MEMCARLO_SKIP_DEMO=1 skips the demo step (for a quicker local rerun; CI never sets it).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's wall time, printed at the end (also when a stage fails): CI has a time budget.
stage_names=()
stage_seconds=()
stage_started=$SECONDS
stage_current=""
stage() {
  if [ -n "$stage_current" ]; then
    stage_names+=("$stage_current")
    stage_seconds+=($((SECONDS - stage_started)))
  fi
  stage_current="$1"
  stage_started=$SECONDS
  [ -z "$1" ] || echo "test.sh: stage: $1"
}
print_stages() {
  local status=$?
  stage ""
  echo "test.sh: stage durations (total ${SECONDS} s):"
  for i in "${!stage_names[@]}"; do
    printf 'test.sh:   %-34s %5d s\n' "${stage_names[$i]}" "${stage_seconds[$i]}"
  done
  return $status
}
trap print_stages EXIT

stage "install dependencies"
bash scripts/install-deps.sh
jobs=$(nproc)

if [ "${MEMCARLO_SKIP_DEMO:-0}" != "1" ]; then
  stage "demo (README's first command)"
  echo "test.sh: running the README's first command, scripts/demo.sh"
  bash scripts/demo.sh
fi

# Prints the number of tests ctest finds in build directory $1.
count_tests() {
  ctest --test-dir "$1" -N | sed -n 's/^Total Tests: \([0-9]*\)$/\1/p'
}

stage "release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEMCARLO_BUILD_TESTS=ON \
  -DMEMCARLO_BUILD_INSTRUMENTER=ON -DMEMCARLO_BUILD_CUDA_BACKEND=ON -DMEMCARLO_BUILD_BENCH=ON \
  -DMEMCARLO_SANITIZE=OFF -DMEMCARLO_BROWSER_TESTS=ON -DMEMCARLO_WITH_MPI=ON \
  -DMEMCARLO_SKIP_COMPONENTS=
cmake --build build -j"$jobs"
release_tests=$(count_tests build)
echo "test.sh: ${release_tests} release tests"
stage "release tests"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs" --timeout 900

# Sanitizers: the libraries and their tests; the Clang-based instrumenter and the benchmarks stay
# out (their heavy dependencies are not instrumented anyway) to keep CI well under an hour, and so
# does the browser test of the HTML reports (Chromium is not instrumented; the release build runs it).
# -g1 (line tables only) keeps sanitizer reports symbolized with file:line at a fraction of the
# compile and link time of full debug information. -Og: GCC spends 3.8 times less CPU compiling
# with ASan+UBSan at -Og than at -O2 (cli/sweep_command.cpp: 39 s against 148 s; 81 s at -O1);
# the instrumentation is the same, the tests run a little slower. The tests' own files leave out
# three UBSan checks (see memcarlo_target_defaults in cmake/MemcarloTargets.cmake).
stage "ASan+UBSan build"
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEMCARLO_SANITIZE=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG" \
  -DMEMCARLO_BUILD_TESTS=ON -DMEMCARLO_BUILD_BENCH=OFF -DMEMCARLO_BUILD_INSTRUMENTER=OFF \
  -DMEMCARLO_BUILD_CUDA_BACKEND=OFF -DMEMCARLO_BROWSER_TESTS=OFF
cmake --build build-sanitize -j"$jobs"
sanitizer_tests=$(count_tests build-sanitize)
echo "test.sh: ${sanitizer_tests} sanitizer tests"
stage "ASan+UBSan tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-sanitize --output-on-failure --no-tests=error -j"$jobs" --timeout 1800

# ThreadSanitizer: the engine (trials and the compile in parallel), the host runtime (blocks on
# several threads, fibers) and the trace writer. TBB is not instrumented: our side of its parallel
# regions is annotated and tests/tsan.supp suppresses races inside its own headers only.
tsan_targets=(sim_tests host_runtime_emulation_test host_runtime_trace_test tracebuf_tests)
stage "TSan build"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEMCARLO_TSAN=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG" -DMEMCARLO_SANITIZE=OFF \
  -DMEMCARLO_BUILD_TESTS=ON -DMEMCARLO_BUILD_BENCH=OFF -DMEMCARLO_BUILD_INSTRUMENTER=OFF \
  -DMEMCARLO_BUILD_CUDA_BACKEND=OFF -DMEMCARLO_BROWSER_TESTS=OFF -DMEMCARLO_WITH_MPI=OFF
cmake --build build-tsan -j"$jobs" --target "${tsan_targets[@]}"
tsan_labels="^($(IFS='|'; echo "${tsan_targets[*]}"))\$"
tsan_tests=$(ctest --test-dir build-tsan -N -L "$tsan_labels" -E '^MalformedTraces\.' | sed -n 's/^Total Tests: \([0-9]*\)$/\1/p')
echo "test.sh: ${tsan_tests} tests under ThreadSanitizer"
# MalformedTraces replays 300 mutated traces one after another on one thread (43 s under TSan,
# a seventh of the stage's test time); it runs in the release and ASan+UBSan trees, and the
# compile's threads are ParallelCompile's test here.
stage "TSan tests"
TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan -L "$tsan_labels" -E '^MalformedTraces\.' --output-on-failure \
  --no-tests=error -j"$jobs" --timeout 1800

# Coverage-guided fuzzing, briefly: every committed regression input, then each harness from its
# seeds for a fixed time (scripts/fuzz.sh SECONDS runs them longer). Built at -O0 (--quick-build):
# for 20 s of fuzzing per harness the build at -O1 cost more than the fuzzing.
stage "fuzzers"
bash scripts/fuzz.sh 20 --quick-build --jobs "$jobs" --build-dir build-fuzz-quick --out build-fuzz-quick/ci-out
echo "test.sh: all tests passed: ${release_tests} release, ${sanitizer_tests} under ASan+UBSan, ${tsan_tests} under TSan; fuzzers clean"
