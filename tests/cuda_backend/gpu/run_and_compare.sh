#!/bin/sh
# run_and_compare.sh PROGRAM MEMCARLO REFERENCE.mct OUT.mct: runs the cuda backend build of the
# deterministic kernels (exit 77 without a GPU: the test is skipped), then compares its trace with
# the host backend's reference trace (`memcarlo trace compare`).
program=$1 memcarlo=$2 reference=$3 trace=$4
rm -f "$trace"
MEMCARLO_TRACE=$trace MEMCARLO_VERBOSE=1 "$program"
status=$?
[ $status -eq 0 ] || exit $status
exec "$memcarlo" trace compare "$reference" "$trace"
