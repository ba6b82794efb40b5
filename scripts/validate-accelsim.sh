#!/usr/bin/env bash
# memcarlo against Accel-Sim on the same traces in one command (docs/accelsim.md, "Cross-checking
# with Accel-Sim"). For every bundled example (and any --program or --trace given): build it for
# memcarlo's host backend and trace it with `memcarlo run`, export the trace with `memcarlo trace
# export --format accelsim`, run Accel-Sim's trace-driven simulator on the export and memcarlo
# simulate on the trace; then `memcarlo validate` prints the per-kernel table and the mean absolute
# error per level, and writes validation.json. Accel-Sim is never downloaded or built here: without
# an accel-sim.out and its configuration files it says what is missing, runs nothing and exits 0.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/validate-accelsim.sh [options]

Runs Accel-Sim and memcarlo on the same traces of every bundled example and compares their L1 and
L2 sector hit rates. Writes, under the output directory, one folder per program (binary, trace,
accelsim-traces/, accelsim.out, report.json, logs) and validation.json / validation.txt.

options:
  --accelsim PATH          Accel-Sim's trace-driven simulator, accel-sim.out
  --config FILE            an Accel-Sim configuration file, passed as `-config FILE` in the order
                           given (repeatable; typically gpgpusim.config, then trace.config)
  -H, --hierarchy PRESET   memcarlo's preset (or hierarchy file) to compare with (default v100,
                           the counterpart of Accel-Sim's SM7_QV100)
  --binary-version N       the SM version written into the exported traces (default 70)
  -o, --out DIR            output directory (default: out/validate-accelsim in the repository)
  --build-dir DIR          where memcarlo is built (default: build in the repository); memcarlo
                           and memcarlo-cc are built there when missing
  --memcarlo PATH          use this memcarlo (and the memcarlo-cc next to it) as it is: no build
  -n, --trials N           Monte Carlo trials per program (default 8)
  --example NAME           validate only this bundled example (repeatable), e.g. spmv_scalar
  --program NAME=FILE.cu   also validate this CUDA program of your own, built like the examples
                           and run without arguments (repeatable)
  --trace NAME=FILE.mct    also validate this memcarlo trace as it is (repeatable)
  --only-given             validate only the --program and --trace entries, no bundled example
  -h, --help               this text

environment, used when the options are not given: ACCELSIM (the path of accel-sim.out);
ACCELSIM_CONFIGS (configuration files separated by ':'); ACCELSIM_ROOT (the gpu-simulator folder
of an Accel-Sim checkout, as its setup_environment.sh sets it: accel-sim.out is then
$ACCELSIM_ROOT/bin/release/accel-sim.out and the configurations those of SM7_QV100,
$ACCELSIM_ROOT/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config and
$ACCELSIM_ROOT/configs/tested-cfgs/SM7_QV100/trace.config).

exit status: 0 every program validated, or nothing to run on this machine (no accel-sim.out or no
configuration: the message says which); 1 a program failed (its build, run, export, Accel-Sim or
simulation; the others are still validated and the table printed) or memcarlo did not build;
2 bad options.
EOF
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out_dir=$root/out/validate-accelsim
build_dir=$root/build
memcarlo=""
accelsim=${ACCELSIM:-}
configs=()
preset=v100
binary_version=70
trials=8
only=()
given=()
only_given=0

die_usage() {
  echo "validate-accelsim.sh: $1 (--help lists the options)" >&2
  exit 2
}

# check_name_value OPTION TEXT: TEXT is NAME=VALUE with a NAME of letters, digits, _ - .
check_name_value() {
  if ! [[ $2 =~ ^[A-Za-z0-9_.-]+=.+$ ]]; then die_usage "$1 needs NAME=FILE, not \"$2\""; fi
}

while (($# > 0)); do
  case $1 in
    --accelsim) (($# >= 2)) || die_usage "$1 needs a path"; accelsim=$2; shift 2 ;;
    --config) (($# >= 2)) || die_usage "$1 needs a file"; configs+=("$2"); shift 2 ;;
    -H | --hierarchy) (($# >= 2)) || die_usage "$1 needs a preset"; preset=$2; shift 2 ;;
    --binary-version)
      if (($# < 2)) || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then die_usage "$1 needs a number"; fi
      binary_version=$2; shift 2 ;;
    -o | --out) (($# >= 2)) || die_usage "$1 needs a directory"; out_dir=$2; shift 2 ;;
    --build-dir) (($# >= 2)) || die_usage "$1 needs a directory"; build_dir=$2; shift 2 ;;
    --memcarlo) (($# >= 2)) || die_usage "$1 needs a path"; memcarlo=$2; shift 2 ;;
    -n | --trials)
      if (($# < 2)) || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then die_usage "$1 needs a positive number"; fi
      trials=$2; shift 2 ;;
    --example) (($# >= 2)) || die_usage "$1 needs a name"; only+=("$2"); shift 2 ;;
    --program) (($# >= 2)) || die_usage "$1 needs NAME=FILE.cu"; check_name_value "$1" "$2"
      given+=("program $2"); shift 2 ;;
    --trace) (($# >= 2)) || die_usage "$1 needs NAME=FILE.mct"; check_name_value "$1" "$2"
      given+=("trace $2"); shift 2 ;;
    --only-given) only_given=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die_usage "unknown option $1" ;;
  esac
done

# Every bundled example (examples/CMakeLists.txt) with its arguments, as scripts/validate-gpu.sh
# runs them.
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
((only_given == 0 || ${#given[@]} > 0)) || die_usage "--only-given needs --program or --trace"
for entry in ${given[@]+"${given[@]}"}; do
  file=${entry#* }
  file=${file#*=}
  [[ -f $file ]] || die_usage "${entry%% *} file $file does not exist"
done

# ---- Accel-Sim: found, never fetched --------------------------------------------------------------

missing=()
if [[ -z $accelsim && -n ${ACCELSIM_ROOT:-} ]]; then
  accelsim=$ACCELSIM_ROOT/bin/release/accel-sim.out
fi
if [[ -z $accelsim ]]; then
  missing+=("accel-sim.out: give --accelsim PATH, or set ACCELSIM or ACCELSIM_ROOT")
elif [[ ! -x $accelsim || -d $accelsim ]]; then
  missing+=("accel-sim.out: $accelsim is not an executable file")
fi
if ((${#configs[@]} == 0)); then
  if [[ -n ${ACCELSIM_CONFIGS:-} ]]; then
    IFS=: read -r -a configs <<<"$ACCELSIM_CONFIGS"
  elif [[ -n ${ACCELSIM_ROOT:-} ]]; then
    configs=("$ACCELSIM_ROOT/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config"
      "$ACCELSIM_ROOT/configs/tested-cfgs/SM7_QV100/trace.config")
  fi
fi
if ((${#configs[@]} == 0)); then
  missing+=("Accel-Sim's configuration: give --config FILE (gpgpusim.config, trace.config), or set ACCELSIM_CONFIGS or ACCELSIM_ROOT")
fi
for config in ${configs[@]+"${configs[@]}"}; do
  [[ -f $config ]] || missing+=("Accel-Sim configuration file $config: not found")
done
if ((${#missing[@]} > 0)); then
  echo "validate-accelsim.sh: nothing run: comparing with Accel-Sim needs what this machine lacks:"
  printf '  - %s\n' "${missing[@]}"
  echo "  (docs/accelsim.md says how to build Accel-Sim; this script never downloads it)"
  exit 0
fi
absolute() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
accelsim=$(absolute "$accelsim")
config_args=()
for config in "${configs[@]}"; do
  config_args+=(-config "$(absolute "$config")")
done
echo "validate-accelsim.sh: Accel-Sim $accelsim with ${configs[*]}"

# ---- memcarlo ------------------------------------------------------------------------------------

mkdir -p "$out_dir"
if [[ -n $memcarlo ]]; then
  [[ -x $memcarlo ]] || die_usage "--memcarlo $memcarlo is not an executable file"
  cc=$(dirname "$memcarlo")/memcarlo-cc
else
  memcarlo=$build_dir/cli/memcarlo
  cc=$build_dir/cli/memcarlo-cc
  if [[ ! -x $memcarlo || ! -x $cc ]]; then
    echo "validate-accelsim.sh: building memcarlo in $build_dir (log: $out_dir/build-memcarlo.log)"
    configure=(cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
      -DMEMCARLO_BUILD_TESTS=OFF -DMEMCARLO_BUILD_BENCH=OFF)
    if [[ ! -f $build_dir/CMakeCache.txt ]] && command -v ninja >/dev/null 2>&1; then
      configure+=(-G Ninja)
    fi
    if ! { "${configure[@]}" && cmake --build "$build_dir" -j"$(nproc)" --target memcarlo memcarlo-cc; } \
      >"$out_dir/build-memcarlo.log" 2>&1; then
      tail -n 30 "$out_dir/build-memcarlo.log" | sed 's/^/  | /'
      echo "validate-accelsim.sh: memcarlo did not build (scripts/install-deps.sh installs its dependencies)"
      exit 1
    fi
  fi
fi
echo "validate-accelsim.sh: memcarlo $memcarlo with $preset, $trials trials"

# ---- Each program ----------------------------------------------------------------------------------

failure=""

# step LOG WHAT COMMAND...: scripts/lib/step.sh.
source "$root/scripts/lib/step.sh"

case_args=()
failed_args=()
failed_names=()
atomic_names=()

# trace_program NAME SOURCE ARGS...: the program built for the host backend and traced.
trace_program() {
  local name=$1 source=$2
  shift 2
  step "$dir/build.log" "memcarlo-cc --backend host" \
    "$cc" --backend host -std=c++17 -O2 "$source" -o "$dir/$name" || return 1
  step "$dir/run.log" "memcarlo run" \
    "$memcarlo" run -H "$preset" --trace "$dir/$name.mct" -- "$dir/$name" "$@" || return 1
  trace=$dir/$name.mct
}

# validate_trace NAME: export $trace, run Accel-Sim on the export and memcarlo on the trace.
validate_trace() {
  local name=$1
  step "$dir/export.log" "memcarlo trace export" \
    "$memcarlo" trace export --format accelsim "$trace" -o "$dir/accelsim-traces" --snapshot-grid \
    --binary-version "$binary_version" -q || return 1
  # Accel-Sim writes its statistics on standard output; it runs in the program's folder.
  if ! (cd "$dir" && step --stdout "$dir/accelsim.out" "$dir/accelsim.log" "Accel-Sim" \
    "$accelsim" -trace "$dir/accelsim-traces/kernelslist.g" "${config_args[@]}"); then
    failure="Accel-Sim failed (log $dir/accelsim.log, output $dir/accelsim.out)"
    return 1
  fi
  step "$dir/simulate.log" "memcarlo simulate" \
    "$memcarlo" simulate "$trace" -H "$preset" -n "$trials" -q -o "$dir/report.json" || return 1
  if grep -qs ' ATOMG\.\| ATOM\.' "$dir"/accelsim-traces/kernel-*.traceg; then
    atomic_names+=("$name")
  fi
  case_args+=(--case "$name=$dir/report.json,$dir/accelsim.out")
}

programs=()
if ((only_given == 0)); then
  for entry in "${examples[@]}"; do
    if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" ${entry%% *} "* ]]; then
      continue
    fi
    programs+=("example $entry")
  done
fi
for entry in ${given[@]+"${given[@]}"}; do
  programs+=("$entry")
done

count=0
for entry in "${programs[@]}"; do
  read -r kind spec rest <<<"$entry"
  arguments=""
  if [[ $kind == example ]]; then
    name=$spec
    read -r source arguments <<<"$rest"
    source=$root/examples/$source
  else
    name=${spec%%=*}
    source=$(absolute "${spec#*=}")
  fi
  read -r -a argv <<<"${arguments:-}"
  count=$((count + 1))
  echo "validate-accelsim.sh: [$count] $name${arguments:+ $arguments}"
  dir=$out_dir/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  failure=""
  trace=""
  if [[ $kind == trace ]]; then
    trace=$source
  elif ! trace_program "$name" "$source" ${argv[@]+"${argv[@]}"}; then
    echo "validate-accelsim.sh: $name: $failure"
    failed_names+=("$name")
    failed_args+=(--failed "$name=$failure")
    continue
  fi
  if ! validate_trace "$name"; then
    echo "validate-accelsim.sh: $name: $failure"
    failed_names+=("$name")
    failed_args+=(--failed "$name=$failure")
  fi
done

# ---- The table over every program -----------------------------------------------------------------

echo
config_dir=$(dirname "${configs[0]}")
if ! "$memcarlo" validate --device "Accel-Sim ${config_dir##*/}, memcarlo preset $preset" \
  ${case_args[@]+"${case_args[@]}"} ${failed_args[@]+"${failed_args[@]}"} \
  -o "$out_dir/validation.json" >"$out_dir/validation.txt" 2>"$out_dir/validate.log"; then
  cat "$out_dir/validate.log"
  echo "validate-accelsim.sh: memcarlo validate failed (log $out_dir/validate.log)"
  exit 1
fi
cat "$out_dir/validation.txt"
echo
if ((${#atomic_names[@]} > 0)); then
  echo "validate-accelsim.sh: ${atomic_names[*]} use global atomics, which Accel-Sim counts as L2" \
    "reads and memcarlo (like Nsight Compute) does not: their L2 read rows differ by design"
fi
echo "validate-accelsim.sh: wrote $out_dir/validation.json and $out_dir/validation.txt"
if ((${#failed_names[@]} > 0)); then
  echo "validate-accelsim.sh: ${#failed_names[@]} of $count programs failed: ${failed_names[*]}" \
    "(logs in their folders under $out_dir)"
  exit 1
fi
exit 0
