#!/usr/bin/env bash
# The test command of the README and of CI: installs what is needed, builds, runs every test,
# then runs the suites again built with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 900

# Sanitizers: the libraries and their tests; the Clang-based instrumenter and the benchmarks stay
# out (their heavy dependencies are not instrumented anyway) to keep CI well under an hour.
# -g1 (line tables only) keeps sanitizer reports symbolized with file:line at a fraction of the
# compile and link time of full debug information.
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEMCARLO_SANITIZE=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  -DMEMCARLO_BUILD_BENCH=OFF -DMEMCARLO_BUILD_INSTRUMENTER=OFF -DMEMCARLO_BUILD_CUDA_BACKEND=OFF
cmake --build build-sanitize -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-sanitize --output-on-failure -j"$jobs" --timeout 1800
echo "test.sh: all tests passed (release and sanitizers)"
