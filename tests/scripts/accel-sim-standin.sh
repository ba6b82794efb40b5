#!/usr/bin/env bash
# A stand-in for Accel-Sim's accel-sim.out in the tests of scripts/validate-accelsim.sh: takes the
# same arguments (-trace kernelslist.g, -config FILE ...), checks that the traces and configuration
# files are there, and prints, for each kernel of the list, a statistics block in Accel-Sim's
# format (gpgpu-sim cache_stats::print_stats) with counts that add up over the run as Accel-Sim's
# do. Each kernel adds, to the L1 data caches' GLOBAL_ACC_R: 3 HIT, 1 HIT_RESERVED, 2 MISS,
# 2 SECTOR_MISS (50 % in flight included, 37.5 % HIT only); to the L2's GLOBAL_ACC_R 1 HIT, 1 MISS
# (50 %); to its GLOBAL_ACC_W 9 HIT, 1 MISS (90 %). STANDIN_LOG, when set, names a file to which the
# command line is appended; STANDIN_FAIL_ON, when set, makes a kernel list under a folder of that
# name fail as a crashed simulation would.
set -euo pipefail

[[ -n ${STANDIN_LOG:-} ]] && echo "$0 $*" >>"$STANDIN_LOG"
trace=""
while (($# > 0)); do
  case $1 in
    -trace) trace=$2; shift 2 ;;
    -config)
      [[ -f $2 ]] || { echo "GPGPU-Sim: cannot open config file '$2'" >&2; exit 1; }
      shift 2 ;;
    *) echo "accel-sim stand-in: unexpected argument $1" >&2; exit 1 ;;
  esac
done
[[ -f $trace ]] || { echo "Unable to open file: $trace"; exit 1; }
if [[ -n ${STANDIN_FAIL_ON:-} && $trace == */"$STANDIN_FAIL_ON"/* ]]; then
  echo "accel-sim.out: trace_parser.cc:242: Assertion failed" >&2
  exit 134
fi
echo "Accel-Sim [build stand-in]"
dir=$(dirname "$trace")
kernels=0
while read -r line; do
  [[ $line == kernel* ]] || continue
  file=$dir/$line
  grep -q '^-accelsim tracer version = ' "$file" || { echo "not a traceg: $file" >&2; exit 1; }
  name=$(sed -n 's/^-kernel name = //p' "$file")
  kernels=$((kernels + 1))
  echo "launching kernel name: $name uid: $kernels"
  echo "kernel_name = $name "
  echo "kernel_launch_uid = $kernels "
  echo "gpu_sim_cycle = $((1000 * kernels))"
  echo "Total_core_cache_stats:"
  for status in HIT HIT_RESERVED MISS RESERVATION_FAIL SECTOR_MISS MSHR_HIT; do
    case $status in HIT) n=3 ;; HIT_RESERVED) n=1 ;; MISS | SECTOR_MISS) n=2 ;; *) n=5 ;; esac
    printf '\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][%s] = %d\n' $status $((n * kernels))
  done
  printf '\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = %d\n' $((8 * kernels))
  echo "L2_total_cache_breakdown:"
  for status in HIT MISS; do
    printf '\tL2_cache_stats_breakdown[GLOBAL_ACC_R][%s] = %d\n' $status $((kernels))
  done
  printf '\tL2_cache_stats_breakdown[GLOBAL_ACC_W][HIT] = %d\n' $((9 * kernels))
  printf '\tL2_cache_stats_breakdown[GLOBAL_ACC_W][MISS] = %d\n' $((kernels))
done <"$trace"
echo "GPGPU-Sim: *** exit detected ***"
