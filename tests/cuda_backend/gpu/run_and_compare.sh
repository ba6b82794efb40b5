#!/bin/sh
# run_and_compare.sh PROGRAM COMPARE REFERENCE.mct OUT.mct: runs the cuda backend build of the
# deterministic kernels (exit 77 without a GPU: the test is skipped), then compares its trace with
# the host backend's reference trace.
program=$1 compare=$2 reference=$3 trace=$4
rm -f "$trace"
MEMCARLO_TRACE=$trace MEMCARLO_VERBOSE=1 "$program"
status=$?
[ $status -eq 0 ] || exit $status
exec "$compare" "$reference" "$trace"
