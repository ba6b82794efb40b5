#!/usr/bin/env bash
# Installs the Debian 12 packages memcarlo builds and tests with (skips apt when all are there).
# libjs-chart.js is built into the HTML reports; chromium and zlib1g-dev run their browser test
# (zlib1g-dev is also one of LLVM's CMake dependencies); liblzma-dev reads compressed Accel-Sim
# traces (the demo does not build that part); python3 makes the table of scripts/example-sweep.sh
# (tested); libfuzzer-16-dev and libclang-rt-16-dev build the fuzzers with clang-16
# (scripts/fuzz.sh).
#   --demo   only what scripts/demo.sh builds and runs (no test, browser, MPI or fuzzing packages)
set -euo pipefail
# What `memcarlo profile` needs: the libraries, the Clang-based instrumenter and the HTML page.
packages=(
  cmake ninja-build g++ pkg-config
  libtbb-dev libeigen3-dev libboost-dev libboost-context-dev nlohmann-json3-dev libcli11-dev
  libclang-16-dev llvm-16-dev clang-16 libjs-chart.js zlib1g-dev
)
if [ "${1:-}" != "--demo" ]; then
  packages+=(
    liblzma-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    libfuzzer-16-dev libclang-rt-16-dev
    chromium
    libopenmpi-dev openmpi-bin
    python3
  )
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
