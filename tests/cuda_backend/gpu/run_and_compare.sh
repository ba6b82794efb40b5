#!/bin/sh
# run_and_compare.sh PROGRAM MEMCARLO REFERENCE.mct OUT.mct: runs the cuda backend build of the
# deterministic kernels (exit 77 without a GPU: the test is skipped), then compares its trace with
# the host backend's reference trace (`memcarlo trace compare --per-lane`: a GPU may group a
# diverged warp's lanes differently from the host, and from run to run, as an H200 did).
program=$1 memcarlo=$2 reference=$3 trace=$4
rm -f "$trace"
MEMCARLO_TRACE=$trace MEMCARLO_VERBOSE=1 "$program"
status=$?
[ $status -eq 0 ] || exit $status
exec "$memcarlo" trace compare --per-lane "$reference" "$trace"
