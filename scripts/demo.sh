#!/usr/bin/env bash
# The README's first command: installs what is needed, builds memcarlo, and runs the main job on a
# bundled input — the paper's scalar CSR SpMV kernel (synthetic trace of its accesses) replayed
# 32 times on the Tesla C2050 hierarchy. Prints the per-load table and writes report.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEMCARLO_BUILD_TESTS=OFF \
  -DMEMCARLO_BUILD_BENCH=OFF -DMEMCARLO_BUILD_INSTRUMENTER=OFF >/dev/null
cmake --build build --target memcarlo -j"$(nproc)"
mkdir -p out
./build/cli/memcarlo synth --pattern spmv --blocks 56 --threads 256 --nnz-per-row 32 \
  --matrix random --seed 1 -o out/spmv.mct
./build/cli/memcarlo simulate out/spmv.mct --hierarchy fermi-c2050 --trials 32 --seed 1 \
  -o out/report.json
