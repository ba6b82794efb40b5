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

When the GPU machine cannot build memcarlo (its dependencies are Debian packages), split the work:
  scripts/validate-gpu.sh --prepare DIR --arch sm_90 --device "NVIDIA H100 80GB HBM3"
      here, with nvcc but no GPU: builds memcarlo and every binary, traces the host builds, and
      writes DIR/device/ (the binaries and run.sh, about 2 MB per example)
  bash DIR/device/run.sh            on the GPU machine: needs only its driver and ncu; traces the
                                    GPU builds and measures the plain builds into DIR/device/
  scripts/validate-gpu.sh --finish DIR
      here again, with DIR/device/ copied back: compares, simulates and prints the table

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
  --prepare DIR            the first step of a split run (above): needs nvcc, --arch, and --device
                           or --hierarchy; no GPU
  --arch sm_XY             with --prepare: the GPU's architecture (its compute capability)
  --device NAME            with --prepare: the GPU's name as nvidia-smi prints it, which chooses
                           the preset (ignored when --hierarchy is given)
  --finish DIR             the last step of a split run: reads DIR/device/ (written by run.sh on
                           the GPU machine) and the preset and examples that --prepare used
  -h, --help               this text

environment: NVCC, NCU (paths of nvcc and ncu; otherwise PATH, then $CUDA_HOME/bin, default
/usr/local/cuda/bin); CUDA_VISIBLE_DEVICES (the first device listed is used, default 0); NCU_ARGS
(extra ncu options, e.g. --clock-control none; also read by DIR/device/run.sh).

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
mode=all  # all, prepare or finish
arch=""
device_option=""

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
    --prepare | --finish)
      (($# >= 2)) || die_usage "$1 needs a directory"
      [[ $mode == all ]] || die_usage "--prepare and --finish are separate steps"
      mode=${1#--}; out_dir=$2; shift 2 ;;
    --arch)
      if (($# < 2)) || ! [[ $2 =~ ^sm_[0-9]+a?$ ]]; then die_usage "$1 needs sm_XY, e.g. sm_90"; fi
      arch=$2; shift 2 ;;
    --device) (($# >= 2)) || die_usage "$1 needs a name"; device_option=$2; shift 2 ;;
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
# Absolute, since the steps run in other folders.
[[ $out_dir == /* ]] || out_dir=$PWD/$out_dir
[[ $build_dir == /* ]] || build_dir=$PWD/$build_dir
if [[ $mode == prepare ]]; then
  [[ -n $arch ]] || die_usage "--prepare needs --arch sm_XY (the GPU's compute capability)"
  [[ -n $device_option || -n $preset ]] || die_usage "--prepare needs --device NAME or --hierarchy"
elif [[ -n $arch || -n $device_option ]]; then
  die_usage "--arch and --device go with --prepare"
fi
if [[ $mode == finish ]]; then
  [[ -z $preset ]] || die_usage "--finish simulates with the preset --prepare traced with"
  ((${#only[@]} == 0)) || die_usage "--finish validates the examples --prepare built"
  for file in prepared.txt device/device.txt; do
    [[ -f $out_dir/$file ]] || die_usage "$out_dir/$file is missing: run --prepare, then \
$out_dir/device/run.sh on the GPU machine and copy $out_dir/device back"
  done
fi
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
# nvidia-smi numbers GPUs in PCI bus order; make CUDA number them the same way.
export CUDA_DEVICE_ORDER=PCI_BUS_ID
if [[ $mode != all ]]; then
  :  # --prepare runs nothing on a GPU; --finish reads what the GPU machine wrote
elif ! command -v nvidia-smi >/dev/null 2>&1; then
  missing+=("an NVIDIA GPU: nvidia-smi is not in PATH (no NVIDIA driver installed)")
else
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
nvcc=""
ncu=""
if [[ $mode != finish ]]; then
  nvcc=$(find_tool nvcc NVCC)
  [[ -n $nvcc ]] || missing+=("nvcc (the CUDA toolkit): not found in \$NVCC, PATH or ${CUDA_HOME:-/usr/local/cuda}/bin")
fi
if [[ $mode == all ]]; then
  ncu=$(find_tool ncu NCU)
  [[ -n $ncu ]] || missing+=("ncu (Nsight Compute): not found in \$NCU, PATH or ${CUDA_HOME:-/usr/local/cuda}/bin")
fi

if ((${#missing[@]} > 0)); then
  if [[ $mode == prepare ]]; then
    echo "validate-gpu.sh: --prepare needs what this machine lacks:"
    printf '  - %s\n' "${missing[@]}"
    exit 1
  fi
  echo "validate-gpu.sh: nothing run: validating on a GPU needs what this machine lacks:"
  printf '  - %s\n' "${missing[@]}"
  exit 0
fi

# ---- memcarlo with the cuda backend ------------------------------------------------------------

if [[ $mode == all ]]; then
  compute_capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i "$gpu_index" \
    2>/dev/null | head -n 1 | tr -d ' .') || true
  if [[ $compute_capability =~ ^[0-9]+$ ]]; then
    arch=sm_$compute_capability
  fi
elif [[ $mode == finish ]]; then
  device=$(head -n 1 "$out_dir/device/device.txt")
  read -r preset arch <"$out_dir/prepared.txt"
else
  device=$device_option
fi
if [[ -n $arch ]]; then
  cuda_architectures=${arch#sm_}
  arch_flag=-arch=$arch
else
  cuda_architectures=native
  arch_flag=-arch=native
fi
case $mode in
  all) echo "validate-gpu.sh: $device (GPU $gpu_index, $arch_flag); nvcc $nvcc; ncu $ncu" ;;
  prepare) echo "validate-gpu.sh: preparing for ${device:-the device of $preset} ($arch_flag); nvcc $nvcc" ;;
  finish) echo "validate-gpu.sh: finishing what $out_dir/device/run.sh measured on $device" ;;
esac

# An existing build is reused as it is configured (a build with tests keeps them) when it has the
# cuda backend for this architecture; otherwise it is configured for it.
configure=(cmake -S "$root" -B "$build_dir")
cache=$build_dir/CMakeCache.txt
if [[ ! -f $cache ]]; then
  configure+=(-DCMAKE_BUILD_TYPE=Release -DMEMCARLO_BUILD_TESTS=OFF -DMEMCARLO_BUILD_BENCH=OFF
    -DMEMCARLO_BUILD_CUDA_BACKEND=ON "-DMEMCARLO_CUDA_ARCHITECTURES=$cuda_architectures")
  if command -v ninja >/dev/null 2>&1; then
    configure+=(-G Ninja)
  fi
  [[ -z $nvcc ]] || configure+=("-DCMAKE_CUDA_COMPILER=$nvcc")
elif [[ $mode != finish ]]; then
  configure+=(-DMEMCARLO_BUILD_CUDA_BACKEND=ON)
  architectures=$(sed -n 's/^MEMCARLO_CUDA_ARCHITECTURES:[A-Z]*=//p' "$cache")
  if [[ $cuda_architectures != native && $architectures != all* &&
    ";$architectures;" != *";$cuda_architectures;"* &&
    ";$architectures;" != *";$cuda_architectures-real;"* ]]; then
    configure+=("-DMEMCARLO_CUDA_ARCHITECTURES=${architectures:+$architectures;}$cuda_architectures")
  fi
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
if [[ $mode != finish && ! -f $build_dir/tracebuf/cuda/libmemcarlo_cuda_runtime.a ]]; then
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

# Where the GPU side of an example lives: beside the rest, or under device/ in a split run.
gpu_dir_of() {
  if [[ $mode == all ]]; then echo "$out_dir/$1"; else echo "$out_dir/device/$1"; fi
}

# build_example NAME SOURCE ARGS...: the three builds and the host trace.
build_example() {
  local name=$1 source=$root/examples/$2
  shift 2
  local dir=$out_dir/$name gpu_dir
  gpu_dir=$(gpu_dir_of "$name")
  rm -rf "$dir" "$gpu_dir"
  mkdir -p "$dir" "$gpu_dir"
  step "$dir/build-gpu.log" "memcarlo-cc --backend cuda" \
    "$cc" --backend cuda -std=c++17 -O2 "$arch_flag" "$source" -o "$gpu_dir/$name.gpu" || return 1
  step "$dir/build-host.log" "memcarlo-cc --backend host" \
    "$cc" --backend host -std=c++17 -O2 "$source" -o "$dir/$name.host" || return 1
  step "$dir/build-plain.log" "nvcc" \
    "$nvcc" -std=c++17 -O2 "$arch_flag" "$source" -o "$gpu_dir/$name.plain" || return 1
  step "$dir/run-host.log" "memcarlo run (host backend)" \
    "$memcarlo" run -H "$preset" --trace "$dir/$name.host.mct" -- "$dir/$name.host" "$@"
}

# device_script_entry NAME ARGS...: for a split run, the environment `memcarlo run` would give the
# GPU build (written to trace-env, shell-quoted) and run.sh's line for the example.
device_script_entry() {
  local name=$1
  shift
  local gpu_dir
  gpu_dir=$(gpu_dir_of "$name")
  # `memcarlo run` with env(1) as the program prints the environment it gives a program.
  (cd "$gpu_dir" && "$memcarlo" run -H "$preset" --trace "$name.gpu.mct" -- env 2>/dev/null) |
    grep '^MEMCARLO_' | while IFS= read -r line; do
      printf 'export %s=%q\n' "${line%%=*}" "${line#*=}"
    done >"$gpu_dir/trace-env" || true
  if ! grep -q '^export MEMCARLO_TRACE=' "$gpu_dir/trace-env"; then
    failure="memcarlo run did not give the tracing environment"
    return 1
  fi
  if [[ -s $gpu_dir/$name.gpu.memcarlo-resources ]]; then
    printf 'export MEMCARLO_KERNEL_RESOURCES=%q\n' \
      "$(head -n 1 "$gpu_dir/$name.gpu.memcarlo-resources")" >>"$gpu_dir/trace-env"
  fi
  {
    printf 'run_example %q' "$name"
    (($# == 0)) || printf ' %q' "$@"
    printf '\n'
  } >>"$out_dir/device/run.sh"
}

# gpu_example NAME ARGS...: the GPU trace and the ncu measurement (what run.sh does in a split run).
gpu_example() {
  local name=$1
  shift
  local dir=$out_dir/$name
  step "$dir/run-gpu.log" "memcarlo run (GPU)" \
    "$memcarlo" run -H "$preset" --trace "$dir/$name.gpu.mct" -- "$dir/$name.gpu" "$@" || return 1
  # The plain nvcc build: the program as written, without probes.
  # shellcheck disable=SC2086 # NCU_ARGS is a list of options
  if ! step --stdout "$dir/ncu.csv" "$dir/ncu.log" "ncu" \
    "$ncu" --csv --cache-control all --metrics "$metrics" ${NCU_ARGS:-} "$dir/$name.plain" "$@"; then
    if grep -qs ERR_NVGPUCTRPERM "$dir/ncu.csv" "$dir/ncu.log"; then
      echo "    ncu may not read the GPU's performance counters: run as root, or allow it"
      echo "    (https://developer.nvidia.com/ERR_NVGPUCTRPERM)"
    fi
    return 1
  fi
}

# finish_example NAME: compare the traces, simulate and compare with ncu.
finish_example() {
  local name=$1
  local dir=$out_dir/$name gpu_dir
  gpu_dir=$(gpu_dir_of "$name")
  if [[ $mode == finish ]]; then
    if [[ ! -f $gpu_dir/status ]]; then
      failure="the GPU machine did not run it ($gpu_dir/status is missing)"
      return 1
    elif [[ $(head -n 1 "$gpu_dir/status") != ok ]]; then
      failure="on the GPU machine: $(head -n 1 "$gpu_dir/status") in $gpu_dir"
      return 1
    fi
    # What `memcarlo run` checks after the program: a complete trace.
    step "$dir/trace-check.log" "memcarlo trace check of the GPU trace" \
      "$memcarlo" trace check "$gpu_dir/$name.gpu.mct" || return 1
  fi
  local traces=agree status=0
  # --per-lane: a GPU may group a diverged warp's lanes differently from run to run.
  "$memcarlo" trace compare --per-lane "$dir/$name.host.mct" "$gpu_dir/$name.gpu.mct" \
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
  local simulated=$dir/$name.host.mct
  [[ $simulate_from == host ]] || simulated=$gpu_dir/$name.gpu.mct
  # ncu --cache-control all flushes the caches before each launch: so does the simulation.
  step "$dir/simulate.log" "memcarlo simulate" \
    "$memcarlo" simulate "$simulated" -H "$preset" -n "$trials" -q \
    --set l2.between_launches=flush -o "$dir/report.json" || return 1
  # The comparison of this example alone; it also checks that both files can be read.
  step --stdout "$dir/compare.txt" "$dir/compare.log" "memcarlo compare" \
    "$memcarlo" compare "$dir/report.json" --ncu "$gpu_dir/ncu.csv" || return 1

  case_args+=(--case "$name=$dir/report.json,$gpu_dir/ncu.csv" --traces "$name=$traces")
}

# The GPU machine's script of a split run: its header, then one run_example line per example.
write_device_script_header() {
  cat <<EOF
#!/usr/bin/env bash
# Written by scripts/validate-gpu.sh --prepare for $arch (preset $preset). Run it on the GPU
# machine: it needs the NVIDIA driver (nvidia-smi) and Nsight Compute (ncu, or \$NCU; extra options
# in \$NCU_ARGS), nothing of memcarlo's build. It traces each example's GPU build with the
# environment \`memcarlo run -H $preset\` gives (trace-env) and measures the plain build with ncu,
# writing NAME.gpu.mct, ncu.csv, their logs and status (ok, or the step that failed) in each
# example's folder, and device.txt (the GPU's name). Then copy this folder back and run
# scripts/validate-gpu.sh --finish on the machine that prepared it.
set -uo pipefail
cd "\$(dirname "\${BASH_SOURCE[0]}")" || exit 1
export CUDA_DEVICE_ORDER=PCI_BUS_ID
gpu=\${CUDA_VISIBLE_DEVICES:-0}
nvidia-smi --query-gpu=name --format=csv,noheader -i "\${gpu%%,*}" | head -n 1 >device.txt
[[ -s device.txt ]] || { echo "run.sh: nvidia-smi names no GPU"; exit 1; }
ncu=\${NCU:-\$(command -v ncu || echo "\${CUDA_HOME:-/usr/local/cuda}/bin/ncu")}
metrics=$metrics
failed=0
run_example() {
  local name=\$1
  shift
  echo "run.sh: \$name"
  rm -f "\$name/status" "\$name/\$name.gpu.mct"
  # shellcheck disable=SC1091 # written by --prepare
  if ! (cd "\$name" && . ./trace-env && exec "./\$name.gpu" "\$@") >"\$name/run-gpu.log" 2>&1; then
    echo "the traced GPU build failed (run-gpu.log)" >"\$name/status"
  elif [[ ! -s \$name/\$name.gpu.mct ]]; then
    echo "the traced GPU build wrote no trace (run-gpu.log)" >"\$name/status"
  # shellcheck disable=SC2086 # NCU_ARGS is a list of options
  elif ! "\$ncu" --csv --cache-control all --metrics "\$metrics" \${NCU_ARGS:-} "./\$name/\$name.plain" \\
    "\$@" >"\$name/ncu.csv" 2>"\$name/ncu.log"; then
    echo "ncu failed (ncu.log)" >"\$name/status"
  else
    echo ok >"\$name/status"
    return 0
  fi
  failed=1
  echo "run.sh: \$name: \$(cat "\$name/status")"
  tail -n 5 "\$name/run-gpu.log" "\$name/ncu.log" 2>/dev/null | sed 's/^/    | /'
}
for program in semantics/*.plain; do
  [[ -e \$program ]] || continue
  echo "run.sh: \$program"
  "./\$program" >"\${program%.plain}.gpu.txt" 2>"\${program%.plain}.gpu.log" || failed=1
done
EOF
}

# The semantics check (scripts/gpu-checks/): programs of ours whose output the host backend must
# reproduce exactly, built with nvcc for the GPU and with memcarlo-cc --backend host.
semantics_programs=(partial_warp_shuffles)
semantics_failed=()

build_semantics() {
  local name=$1 source=$root/scripts/gpu-checks/$1.cu dir=$out_dir/semantics gpu_dir
  gpu_dir=$(gpu_dir_of semantics)
  mkdir -p "$dir" "$gpu_dir"
  step "$dir/$name.build-host.log" "memcarlo-cc --backend host" \
    "$cc" --backend host -std=c++17 -O2 "$source" -o "$dir/$name.host" &&
    step "$dir/$name.build-gpu.log" "nvcc" \
      "$nvcc" -std=c++17 -O2 "$arch_flag" "$source" -o "$gpu_dir/$name.plain"
}

# check_semantics NAME: the host build's output must equal the GPU's (NAME.gpu.txt).
check_semantics() {
  local name=$1 dir=$out_dir/semantics gpu_dir
  gpu_dir=$(gpu_dir_of semantics)
  failure=""
  if [[ ! -s $gpu_dir/$name.gpu.txt ]]; then
    failure="the GPU build printed nothing ($gpu_dir/$name.gpu.txt)"
  elif ! step --stdout "$dir/$name.host.txt" "$dir/$name.host.log" "the host build" \
    "$dir/$name.host"; then
    :
  elif ! diff "$gpu_dir/$name.gpu.txt" "$dir/$name.host.txt" >"$dir/$name.diff"; then
    failure="the host backend prints other values than the GPU ($(grep -c '^>' "$dir/$name.diff") \
of $(wc -l <"$gpu_dir/$name.gpu.txt") lines differ; $dir/$name.diff)"
    head -n 6 "$dir/$name.diff" | sed 's/^/    | /'
  fi
  if [[ -n $failure ]]; then
    echo "validate-gpu.sh: semantics: $name: $failure"
    semantics_failed+=("$name")
  else
    echo "validate-gpu.sh: semantics: $name: the host backend prints what the GPU prints" \
      "($(wc -l <"$dir/$name.host.txt") lines)"
  fi
}

if [[ $mode == prepare ]]; then
  rm -rf "$out_dir/device"
  mkdir -p "$out_dir/device"
  echo "$preset $arch" >"$out_dir/prepared.txt"
  : >"$out_dir/examples.txt"
  write_device_script_header >"$out_dir/device/run.sh"
  chmod +x "$out_dir/device/run.sh"
fi

if ((${#only[@]} == 0)); then
  for name in "${semantics_programs[@]}"; do
    if [[ $mode != finish ]] && ! build_semantics "$name"; then
      echo "validate-gpu.sh: semantics: $name: $failure"
      semantics_failed+=("$name")
      continue
    fi
    if [[ $mode == all ]]; then
      gpu_dir=$(gpu_dir_of semantics)
      "$gpu_dir/$name.plain" >"$gpu_dir/$name.gpu.txt" 2>"$gpu_dir/$name.gpu.log" || true
    fi
    [[ $mode == prepare ]] || check_semantics "$name"
  done
fi

count=0
for entry in "${examples[@]}"; do
  read -r name source arguments <<<"$entry"
  if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" $name "* ]]; then
    continue
  fi
  if [[ $mode == finish ]] && ! grep -qx "$name" "$out_dir/examples.txt"; then
    continue
  fi
  read -r -a argv <<<"${arguments:-}"
  count=$((count + 1))
  echo "validate-gpu.sh: [$count] $name${arguments:+ $arguments}"
  failure=""
  status=0
  case $mode in
    all)
      { build_example "$name" "$source" ${argv[@]+"${argv[@]}"} &&
        gpu_example "$name" ${argv[@]+"${argv[@]}"} && finish_example "$name"; } || status=1 ;;
    prepare)
      { build_example "$name" "$source" ${argv[@]+"${argv[@]}"} &&
        device_script_entry "$name" ${argv[@]+"${argv[@]}"} &&
        echo "$name" >>"$out_dir/examples.txt"; } || status=1 ;;
    finish) finish_example "$name" || status=1 ;;
  esac
  if ((status != 0)); then
    echo "validate-gpu.sh: $name: $failure"
    failed_names+=("$name")
    failed_args+=(--failed "$name=$failure")
  fi
done

if [[ $mode == prepare ]]; then
  # shellcheck disable=SC2016 # run.sh's own variable
  echo 'exit "$failed"' >>"$out_dir/device/run.sh"
  echo
  echo "validate-gpu.sh: prepared $(wc -l <"$out_dir/examples.txt") of $count examples in" \
    "$out_dir/device ($(du -sh "$out_dir/device" | cut -f1))"
  echo "validate-gpu.sh: next: bash $out_dir/device/run.sh on the GPU machine; copy" \
    "$out_dir/device back; then scripts/validate-gpu.sh --finish $out_dir --build-dir $build_dir"
  if ((${#failed_names[@]} > 0)); then
    echo "validate-gpu.sh: ${#failed_names[@]} of $count examples failed: ${failed_names[*]}"
    exit 1
  fi
  ((${#semantics_failed[@]} == 0)) || exit 1
  exit 0
fi

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
if ((${#semantics_failed[@]} > 0)); then
  echo "validate-gpu.sh: the host backend's semantics differ from the GPU's for" \
    "${semantics_failed[*]} (folder $out_dir/semantics)"
  status=1
fi
if ((${#differing_names[@]} > 0)); then
  echo "validate-gpu.sh: host and GPU traces differ for ${differing_names[*]}" \
    "(trace-compare.log in their folders; docs/cuda-backend.md lists the known differences)"
  status=1
fi
exit "$status"
