# Sourced by scripts/test.sh and scripts/fuzz.sh: `phase NAME COMMAND...` runs COMMAND and prints
# on stderr how long it took, wall and CPU (user + system of the processes it waited for), so
# that every run shows where the CI budget goes (issue #17: under 40 minutes on 2 cores).
# shellcheck shell=bash

# CPU seconds of this shell's waited-for children so far (/proc/PID/stat fields 16 and 17).
children_cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($16 + $17) / hz }' "/proc/$$/stat"
}

phase() {
  local name=$1 start=$SECONDS cpu_before
  shift
  cpu_before=$(children_cpu_seconds)
  "$@"
  echo "phase: $name: $((SECONDS - start)) s wall, $(($(children_cpu_seconds) - cpu_before)) s CPU" >&2
}
