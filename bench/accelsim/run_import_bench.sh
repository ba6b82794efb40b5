#!/bin/sh
# Import benchmark for `memcarlo trace import --format accelsim`: generates a large .traceg
# (default 1000 MB) in a scratch directory, imports it under /usr/bin/time -v, prints the import
# rate and peak resident memory, and deletes the files.
#   bench/accelsim/run_import_bench.sh [MEMCARLO_BINARY] [SIZE_MB] [SCRATCH_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
memcarlo=${1:-build/cli/memcarlo}
size_mb=${2:-1000}
scratch=${3:-/tmp/memcarlo-accelsim-bench}
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT

${CXX:-c++} -O2 -std=c++20 -o "$scratch/gen_traceg" "$here/gen_traceg.cpp"
"$scratch/gen_traceg" "$scratch/kernel-1.traceg" "$size_mb"
bytes=$(stat -c %s "$scratch/kernel-1.traceg")

/usr/bin/time -v "$memcarlo" trace import --format accelsim --quiet \
  "$scratch/kernel-1.traceg" -o "$scratch/out.mct" > "$scratch/import.txt" 2> "$scratch/time.txt"
cat "$scratch/import.txt"
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$scratch/time.txt")
peak_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$scratch/time.txt")
seconds=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s }')
user=$(sed -n 's/.*User time (seconds): //p' "$scratch/time.txt")
system=$(sed -n 's/.*System time (seconds): //p' "$scratch/time.txt")
cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')
echo "input:       $bytes bytes"
echo "output:      $(stat -c %s "$scratch/out.mct") bytes"
echo "wall:        $seconds s"
echo "cpu:         $user s user + $system s system"
echo "rate:        $(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / 1e6 / s }') MB/s" \
  "wall clock ($(awk -v b="$bytes" -v s="$cpu" 'BEGIN { printf "%.1f", b / 1e6 / s }') MB/s of CPU time;" \
  "load average $(cut -d' ' -f1 /proc/loadavg))"
echo "peak memory: $(awk -v k="$peak_kb" 'BEGIN { printf "%.1f", k / 1024 }') MiB (max RSS)"
