# Shared by scripts/validate-gpu.sh and scripts/validate-accelsim.sh (sourced, not run).

# step LOG WHAT COMMAND...: runs COMMAND with its output in LOG; when it fails, sets `failure` to
# WHAT and shows the end of LOG. `step --stdout FILE LOG WHAT COMMAND...` keeps standard output
# apart in FILE.
step() {
  local stdout=""
  if [[ $1 == --stdout ]]; then
    stdout=$2
    shift 2
  fi
  local log=$1 what=$2
  shift 2
  local status=0
  if [[ -n $stdout ]]; then
    "$@" >"$stdout" 2>"$log" || status=$?
  else
    "$@" >"$log" 2>&1 || status=$?
  fi
  if ((status != 0)); then
    failure="$what failed (exit $status; log $log)"
    if [[ -n $stdout ]]; then
      tail -n 15 "$stdout" "$log" | sed 's/^/    | /'
    else
      tail -n 15 "$log" | sed 's/^/    | /'
    fi
  fi
  return "$status"
}
