#!/usr/bin/env bash
# memcarlo's fidelity on this machine's GPU in one command (docs/ncu-compare.md, "Validating on a
# GPU"). For every bundled example: build it for the GPU (memcarlo-cc --backend cuda) and for the
# host backend, trace both with `memcarlo run` and check that the traces agree, measure the plain
# nvcc build with Nsight Compute, simulate with the preset of the device; then `memcarlo validate`
# prints the table and writes validation.json. Without a GPU, nvcc or ncu it says what is missing,
# runs nothing and exits 0.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/validate-gpu.sh [options]

Measures every bundled example on this machine's NVIDIA GPU with Nsight Compute and compares the
sector hit rates with memcarlo's predictions for the matching preset. Writes, under the output
directory, one folder per example (binaries, traces, ncu.csv, report.json, logs) and
validation.json / validation.txt (the table).

options:
  -o, --out DIR            output directory (default: out/validate-gpu in the repository)
  --build-dir DIR          where memcarlo is built with the cuda backend (default: build-gpu in the
                           repository); an existing build is reused and brought up to date
  -H, --hierarchy PRESET   trace and simulate with PRESET (or a hierarchy file) instead of the
                           preset matched from the device name
  -n, --trials N           Monte Carlo trials per example (default 32)
  --simulate-from host|gpu which trace to simulate (default host: it records __syncthreads
                           barriers and allocation names, which the cuda backend cannot see; the
                           two traces are checked to agree otherwise)
  --example NAME           validate only this example (repeatable), e.g. spmv_scalar
  -h, --help               this text

environment: NVCC, NCU (paths of nvcc and ncu; otherwise PATH, then $CUDA_HOME/bin, default
/usr/local/cuda/bin); CUDA_VISIBLE_DEVICES (the first device listed is used, default 0).

exit status: 0 every example validated, or nothing to run on this machine (no GPU, nvcc or ncu:
the message says which); 1 an example failed (its build, run, trace check, measurement or
simulation; the others are still validated and the table printed) or memcarlo did not build;
2 bad options, or no preset matches the device (pass --hierarchy).
EOF
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out_dir=$root/out/validate-gpu
build_dir=$root/build-gpu
preset=""
trials=32
simulate_from=host
only=()

die_usage() {
  echo "validate-gpu.sh: $1 (--help lists the options)" >&2
  exit 2
}

while (($# > 0)); do
  case $1 in
    -o | --out) (($# >= 2)) || die_usage "$1 needs a directory"; out_dir=$2; shift 2 ;;
    --build-dir) (($# >= 2)) || die_usage "$1 needs a directory"; build_dir=$2; shift 2 ;;
    -H | --hierarchy) (($# >= 2)) || die_usage "$1 needs a preset"; preset=$2; shift 2 ;;
    -n | --trials)
      if (($# < 2)) || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then die_usage "$1 needs a positive number"; fi
      trials=$2; shift 2 ;;
    --simulate-from)
      if (($# < 2)) || ! [[ $2 == host || $2 == gpu ]]; then die_usage "$1 needs host or gpu"; fi
      simulate_from=$2; shift 2 ;;
    --example) (($# >= 2)) || die_usage "$1 needs a name"; only+=("$2"); shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) die_usage "unknown option $1" ;;
  esac
done

# Every bundled example (examples/CMakeLists.txt) with its arguments: the examples' defaults,
# except SpMV at the size of the paper's case study (scripts/demo.sh).
examples=(
  "spmv_scalar spmv/spmv_scalar.cu --matrix u --rows 32768"
  "spmv_vector spmv/spmv_vector.cu --matrix u --rows 32768"
  "matmul_naive matmul/matmul_naive.cu"
  "matmul_tiled matmul/matmul_tiled.cu"
  "stencil2d stencil/stencil2d.cu"
  "laplace3d laplace3d/laplace3d.cu"
  "bfs_csr bfs/bfs_csr.cu"
  "histogram histogram/histogram.cu"
  "transpose_naive transpose/transpose_naive.cu"
  "transpose_tiled transpose/transpose_tiled.cu"
  "reduction_shfl reduction/reduction_shfl.cu"
)
for name in ${only[@]+"${only[@]}"}; do
  known=0
  for entry in "${examples[@]}"; do
    [[ ${entry%% *} == "$name" ]] && known=1
  done
  ((known)) || die_usage "no example is named $name"
done

# ---- What this machine has: checked before anything is built or written ----------------------

# find_tool NAME VARIABLE: prints the path of NAME from $VARIABLE, PATH or $CUDA_HOME/bin, or
# nothing.
find_tool() {
  local name=$1 override=${!2:-}
  local cuda_bin=${CUDA_HOME:-/usr/local/cuda}/bin/$name
  if [[ -n $override ]]; then
    if [[ -x $override ]]; then echo "$override"; fi
  elif command -v "$name" >/dev/null 2>&1; then
    command -v "$name"
  elif [[ -x $cuda_bin ]]; then
    echo "$cuda_bin"
  fi
  return 0
}

missing=()
device=""
gpu_index=${CUDA_VISIBLE_DEVICES:-0}
gpu_index=${gpu_index%%,*}
if ! command -v nvidia-smi >/dev/null 2>&1; then
  missing+=("an NVIDIA GPU: nvidia-smi is not in PATH (no NVIDIA driver installed)")
else
  # nvidia-smi numbers GPUs in PCI bus order; make CUDA number them the same way.
  export CUDA_DEVICE_ORDER=PCI_BUS_ID
  if device=$(nvidia-smi --query-gpu=name --format=csv,noheader -i "$gpu_index" 2>&1); then
    device=${device%%$'\n'*}
  else
    missing+=("an NVIDIA GPU: nvidia-smi lists none (\"${device%%$'\n'*}\")")
    device=""
  fi
  if [[ -z $device && ${#missing[@]} -eq 0 ]]; then
    missing+=("an NVIDIA GPU: nvidia-smi printed no device name")
  fi
fi
nvcc=$(find_tool nvcc NVCC)
[[ -n $nvcc ]] || missing+=("nvcc (the CUDA toolkit): not found in \$NVCC, PATH or ${CUDA_HOME:-/usr/local/cuda}/bin")
ncu=$(find_tool ncu NCU)
[[ -n $ncu ]] || missing+=("ncu (Nsight Compute): not found in \$NCU, PATH or ${CUDA_HOME:-/usr/local/cuda}/bin")

if ((${#missing[@]} > 0)); then
  echo "validate-gpu.sh: nothing run: validating on a GPU needs what this machine lacks:"
  printf '  - %s\n' "${missing[@]}"
  exit 0
fi

# ---- memcarlo with the cuda backend ------------------------------------------------------------

compute_capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i "$gpu_index" \
  2>/dev/null | head -n 1 | tr -d ' .') || true
if [[ $compute_capability =~ ^[0-9]+$ ]]; then
  cuda_architectures=$compute_capability
  arch_flag=-arch=sm_$compute_capability
else
  cuda_architectures=native
  arch_flag=-arch=native
fi
echo "validate-gpu.sh: $device (GPU $gpu_index, $arch_flag); nvcc $nvcc; ncu $ncu"

configure=(cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
  -DMEMCARLO_BUILD_CUDA_BACKEND=ON -DMEMCARLO_BUILD_TESTS=OFF -DMEMCARLO_BUILD_BENCH=OFF
  "-DMEMCARLO_CUDA_ARCHITECTURES=$cuda_architectures" "-DCMAKE_CUDA_COMPILER=$nvcc")
if [[ ! -f $build_dir/CMakeCache.txt ]] && command -v ninja >/dev/null 2>&1; then
  configure+=(-G Ninja)
fi
mkdir -p "$out_dir"
echo "validate-gpu.sh: building memcarlo in $build_dir (log: $out_dir/build-memcarlo.log)"
if ! { "${configure[@]}" && cmake --build "$build_dir" -j"$(nproc)" --target memcarlo memcarlo-cc; } \
  >"$out_dir/build-memcarlo.log" 2>&1; then
  tail -n 30 "$out_dir/build-memcarlo.log" | sed 's/^/  | /'
  echo "validate-gpu.sh: memcarlo did not build (scripts/install-deps.sh installs its dependencies)"
  exit 1
fi
memcarlo=$build_dir/cli/memcarlo
cc=$build_dir/cli/memcarlo-cc
if [[ ! -f $build_dir/tracebuf/cuda/libmemcarlo_cuda_runtime.a ]]; then
  echo "validate-gpu.sh: $build_dir has no cuda backend runtime; see $out_dir/build-memcarlo.log"
  exit 1
fi

if [[ -z $preset ]]; then
  if ! preset=$("$memcarlo" hierarchy for-device "$device"); then
    echo "validate-gpu.sh: pass --hierarchy PRESET (or a hierarchy file) to validate this device"
    exit 2
  fi
fi
echo "validate-gpu.sh: simulating with $preset, $trials trials, from the $simulate_from trace"

# ---- Each example --------------------------------------------------------------------------------

metrics=l1tex__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct
failure=""

# step LOG WHAT COMMAND...: scripts/lib/step.sh.
source "$root/scripts/lib/step.sh"

case_args=()
failed_args=()
failed_names=()
differing_names=()

# validate_example NAME SOURCE ARGS...: every step for one example; on failure returns 1 with
# `failure` saying which step.
validate_example() {
  local name=$1 source=$root/examples/$2
  shift 2
  local dir=$out_dir/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  step "$dir/build-gpu.log" "memcarlo-cc --backend cuda" \
    "$cc" --backend cuda -std=c++17 -O2 "$arch_flag" "$source" -o "$dir/$name.gpu" || return 1
  step "$dir/build-host.log" "memcarlo-cc --backend host" \
    "$cc" --backend host -std=c++17 -O2 "$source" -o "$dir/$name.host" || return 1
  step "$dir/build-plain.log" "nvcc" \
    "$nvcc" -std=c++17 -O2 "$arch_flag" "$source" -o "$dir/$name.plain" || return 1
  step "$dir/run-gpu.log" "memcarlo run (GPU)" \
    "$memcarlo" run -H "$preset" --trace "$dir/$name.gpu.mct" -- "$dir/$name.gpu" "$@" || return 1
  step "$dir/run-host.log" "memcarlo run (host backend)" \
    "$memcarlo" run -H "$preset" --trace "$dir/$name.host.mct" -- "$dir/$name.host" "$@" ||
    return 1

  local traces=agree status=0
  "$memcarlo" trace compare "$dir/$name.host.mct" "$dir/$name.gpu.mct" \
    >"$dir/trace-compare.log" 2>&1 || status=$?
  if ((status == 3)); then
    traces=differ
    differing_names+=("$name")
    echo "    host and GPU traces differ; the first differences ($dir/trace-compare.log):"
    head -n 5 "$dir/trace-compare.log" | sed 's/^/    | /'
  elif ((status != 0)); then
    failure="memcarlo trace compare failed (exit $status; log $dir/trace-compare.log)"
    tail -n 5 "$dir/trace-compare.log" | sed 's/^/    | /'
    return 1
  fi

  # The plain nvcc build: the program as written, without probes.
  if ! step --stdout "$dir/ncu.csv" "$dir/ncu.log" "ncu" \
    "$ncu" --csv --cache-control all --metrics "$metrics" "$dir/$name.plain" "$@"; then
    if grep -qs ERR_NVGPUCTRPERM "$dir/ncu.csv" "$dir/ncu.log"; then
      echo "    ncu may not read the GPU's performance counters: run as root, or allow it"
      echo "    (https://developer.nvidia.com/ERR_NVGPUCTRPERM)"
    fi
    return 1
  fi
  # ncu --cache-control all flushes the caches before each launch: so does the simulation.
  step "$dir/simulate.log" "memcarlo simulate" \
    "$memcarlo" simulate "$dir/$name.$simulate_from.mct" -H "$preset" -n "$trials" -q \
    --set l2.between_launches=flush -o "$dir/report.json" || return 1
  # The comparison of this example alone; it also checks that both files can be read.
  step --stdout "$dir/compare.txt" "$dir/compare.log" "memcarlo compare" \
    "$memcarlo" compare "$dir/report.json" --ncu "$dir/ncu.csv" || return 1

  case_args+=(--case "$name=$dir/report.json,$dir/ncu.csv" --traces "$name=$traces")
}

count=0
for entry in "${examples[@]}"; do
  read -r name source arguments <<<"$entry"
  if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" $name "* ]]; then
    continue
  fi
  read -r -a argv <<<"${arguments:-}"
  count=$((count + 1))
  echo "validate-gpu.sh: [$count] $name${arguments:+ $arguments}"
  failure=""
  if ! validate_example "$name" "$source" ${argv[@]+"${argv[@]}"}; then
    echo "validate-gpu.sh: $name: $failure"
    failed_names+=("$name")
    failed_args+=(--failed "$name=$failure")
  fi
done

# ---- The table over every example ---------------------------------------------------------------

echo
if ! "$memcarlo" validate --device "$device" ${case_args[@]+"${case_args[@]}"} \
  ${failed_args[@]+"${failed_args[@]}"} -o "$out_dir/validation.json" >"$out_dir/validation.txt" \
  2>"$out_dir/validate.log"; then
  cat "$out_dir/validate.log"
  echo "validate-gpu.sh: memcarlo validate failed (log $out_dir/validate.log)"
  exit 1
fi
cat "$out_dir/validation.txt"
echo
echo "validate-gpu.sh: wrote $out_dir/validation.json and $out_dir/validation.txt"
status=0
if ((${#failed_names[@]} > 0)); then
  echo "validate-gpu.sh: ${#failed_names[@]} of $count examples failed: ${failed_names[*]}" \
    "(logs in their folders under $out_dir)"
  status=1
fi
if ((${#differing_names[@]} > 0)); then
  echo "validate-gpu.sh: host and GPU traces differ for ${differing_names[*]}" \
    "(trace-compare.log in their folders; docs/cuda-backend.md lists the known differences)"
  status=1
fi
exit "$status"
