#!/usr/bin/env bash
# The README's first command: installs what is needed, builds memcarlo, and runs the main job on a
# bundled example — `memcarlo profile` on the paper's scalar CSR SpMV kernel
# (examples/spmv/spmv_scalar.cu, 32768 rows of the random matrix "u"): instrument it, build it for the CPU backend,
# run it with tracing, replay the trace 32 times on the Tesla C2050 hierarchy. Prints the per-load
# table and writes out/report.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# Prints where its time goes: installing, configuring, building, profiling.
started=$SECONDS
step() {
  echo "demo.sh: $1 took $((SECONDS - step_started)) s"
  step_started=$SECONDS
}
step_started=$SECONDS
bash scripts/install-deps.sh --demo
step "installing packages"
# Only what `memcarlo profile` runs: no tests, benchmarks, cuda backend runtime (nvcc), synthetic
# traces (memcarlo synth) or Accel-Sim import and export (memcarlo trace import/export); the end
# of this script says how to build the rest. scripts/test.sh sets every one of these again.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEMCARLO_BUILD_TESTS=OFF \
  -DMEMCARLO_BUILD_BENCH=OFF -DMEMCARLO_BUILD_INSTRUMENTER=ON -DMEMCARLO_BUILD_CUDA_BACKEND=OFF \
  "-DMEMCARLO_SKIP_COMPONENTS=synth;accelsim" >/dev/null
step "configuring"
cmake --build build --target memcarlo memcarlo-cc memcarlo-instrument memcarlo_host_runtime \
  -j"$(nproc)"
step "building memcarlo, memcarlo-cc, the instrumenter and the host runtime"
mkdir -p out
./build/cli/memcarlo profile examples/spmv/spmv_scalar.cu --hierarchy fermi-c2050 --trials 32 \
  --seed 1 --work-dir out/spmv_scalar -o out/report.json -- --matrix u --rows 32768
step "profiling (build the example, run it traced, simulate 32 trials)"
echo "demo.sh: $((SECONDS - started)) s in all"
echo "demo.sh: built for this demo only; the whole of memcarlo (memcarlo synth, trace import and"
echo "demo.sh: export, the cuda backend): cmake -S . -B build -DMEMCARLO_SKIP_COMPONENTS= \\"
echo "demo.sh:   -DMEMCARLO_BUILD_CUDA_BACKEND=ON && cmake --build build"
