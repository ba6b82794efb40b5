#!/usr/bin/env bash
# One what-if sweep over every bundled example: build each with memcarlo-cc --backend host, trace
# it with `memcarlo run` (once: the trace is kept and reused while the source is older), run
# `memcarlo sweep` with the given --vary/--set, and print one Markdown table of all examples and
# points (scripts/example_sweep_table.py). For the tables of the what-if issues' notes
# (prefetchers, placements, schedulers).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/example-sweep.sh --vary KEY=V1,V2,... [options]

Sweeps every bundled example (the list of scripts/validate-gpu.sh, with the same arguments) and
prints a Markdown table: per example and point, the chosen overall metrics (mean ± 95% half-width)
and the change of the load latency X against the first point (requests-weighted mean of the loads'
paired differences, in cycles and in percent).

options:
  --vary KEY=V1,V2,...    a swept key (repeatable; passed to memcarlo sweep)
  --points FILE           explicit points instead (JSON list of {"KEY": VALUE} objects; passed
                          to memcarlo sweep)
  --set KEY=VALUE         a fixed key (repeatable)
  -H, --hierarchy PRESET  base hierarchy (default fermi-c2050); traces are sized for it
  -n, --trials N          trials per point (default 8)
  -j, --threads N         threads per sweep (default: memcarlo's default)
  --metrics M1,M2,...     overall metrics in the table (default l1_read_hit_ratio,l2_read_hit_ratio)
  --example NAME          only this example (repeatable), e.g. spmv_scalar
  --build-dir DIR         a build with the instrumenter (default: build in the repository)
  -o, --out DIR           output directory (default: out/example-sweep); per example its binary,
                          trace, sweep.json and logs; table.md with the table
  -h, --help              this text

exit status: 0 every example swept; 1 an example failed (the others still run; the table lists
what ran); 2 bad options or memcarlo not built.
EOF
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out_dir=$root/out/example-sweep
build_dir=$root/build
preset=fermi-c2050
trials=8
threads=""
metrics=l1_read_hit_ratio,l2_read_hit_ratio
sweep_args=()
only=()

die_usage() {
  echo "example-sweep.sh: $1 (--help lists the options)" >&2
  exit 2
}

while (($# > 0)); do
  case $1 in
    --vary | --set) (($# >= 2)) || die_usage "$1 needs KEY=..."; sweep_args+=("$1" "$2"); shift 2 ;;
    --points) (($# >= 2)) || die_usage "$1 needs a file"; [[ -r $2 ]] || die_usage "cannot read $2"
      sweep_args+=("$1" "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift 2 ;;
    -H | --hierarchy) (($# >= 2)) || die_usage "$1 needs a preset"; preset=$2; shift 2 ;;
    -n | --trials) (($# >= 2)) || die_usage "$1 needs a number"; trials=$2; shift 2 ;;
    -j | --threads) (($# >= 2)) || die_usage "$1 needs a number"; threads=$2; shift 2 ;;
    --metrics) (($# >= 2)) || die_usage "$1 needs a list"; metrics=$2; shift 2 ;;
    --example) (($# >= 2)) || die_usage "$1 needs a name"; only+=("$2"); shift 2 ;;
    --build-dir) (($# >= 2)) || die_usage "$1 needs a directory"; build_dir=$2; shift 2 ;;
    -o | --out) (($# >= 2)) || die_usage "$1 needs a directory"; out_dir=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) die_usage "unknown option $1" ;;
  esac
done
[[ $trials =~ ^[1-9][0-9]*$ ]] || die_usage "--trials must be a positive integer, not '$trials'"
printf '%s\n' "${sweep_args[@]+"${sweep_args[@]}"}" | grep -q -- '^--vary$\|^--points$' ||
  die_usage "at least one --vary KEY=V1,V2 (or --points FILE) is needed"

memcarlo=$build_dir/cli/memcarlo
cc=$build_dir/cli/memcarlo-cc
for tool in "$memcarlo" "$cc"; do
  [[ -x $tool ]] || die_usage "$tool is not built (configure $build_dir with the instrumenter and build memcarlo and memcarlo-cc)"
done
command -v python3 >/dev/null || die_usage "python3 is needed for the table (apt-get install python3)"

# The bundled examples with their arguments (scripts/validate-gpu.sh's list).
mapfile -t examples < <(sed -n '/^examples=(/,/^)/p' "$root/scripts/validate-gpu.sh" | sed -n 's/^  "\(.*\)"$/\1/p')
((${#examples[@]} > 0)) || die_usage "found no examples in scripts/validate-gpu.sh"
for name in ${only[@]+"${only[@]}"}; do
  printf '%s\n' "${examples[@]}" | grep -q "^$name " || die_usage "no example is named $name"
done

mkdir -p "$out_dir"
status=0
swept=()
for entry in "${examples[@]}"; do
  read -r -a words <<<"$entry"
  name=${words[0]}
  source=$root/examples/${words[1]}
  args=("${words[@]:2}")
  if ((${#only[@]} > 0)) && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
    continue
  fi
  dir=$out_dir/$name
  mkdir -p "$dir"
  echo "example-sweep.sh: $name" >&2
  trace=$dir/$name.$preset.mct
  if [[ ! -s $trace || $source -nt $trace || $memcarlo -nt $trace ]]; then
    if ! "$cc" --backend host -std=c++17 -O2 "$source" -o "$dir/$name" >"$dir/build.log" 2>&1 ||
      ! "$memcarlo" run -H "$preset" --trace "$trace" -- "$dir/$name" ${args[@]+"${args[@]}"} \
        >"$dir/run.log" 2>&1; then
      echo "  build or run failed: $dir/build.log, $dir/run.log" >&2
      rm -f "$trace"
      status=1
      continue
    fi
  fi
  if ! "$memcarlo" sweep "$trace" -H "$preset" -n "$trials" ${threads:+-j "$threads"} -q \
    "${sweep_args[@]}" -o "$dir/sweep.json" >"$dir/sweep.log" 2>&1; then
    echo "  sweep failed: $dir/sweep.log" >&2
    tail -n 5 "$dir/sweep.log" | sed 's/^/  | /' >&2
    status=1
    continue
  fi
  swept+=("$name=$dir/sweep.json")
done

((${#swept[@]} > 0)) || { echo "example-sweep.sh: no example was swept" >&2; exit 1; }
python3 "$root/scripts/example_sweep_table.py" --metrics "$metrics" "${swept[@]}" | tee "$out_dir/table.md"
exit "$status"
