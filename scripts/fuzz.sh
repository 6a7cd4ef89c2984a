#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time (seconds, default 30),
# seeded from the compatibility corpus, as many at once as there are cores. Any crash, leak or
# sanitizer report fails the run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
source scripts/phase.sh
seconds="${1:-30}"

CC=clang CXX=clang++ phase "fuzz configure" cmake -S . -B build/fuzz \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLUICE_FUZZ=ON -DSLUICE_BUILD_TESTS=OFF >/dev/null
# Only the fuzz targets (and what they link), not every library and tool.
targets=()
for src in fuzz/*_fuzzer.cc; do targets+=(--target "$(basename "$src" .cc)"); done
phase "fuzz build" cmake --build build/fuzz -j"$(nproc)" "${targets[@]}"

compat="${SLUICE_COMPAT_DIR:-$here/../shared/compat}"
# One target: its seeds, then `seconds` of fuzzing into a log; prints the log's last lines.
run_fuzzer() {
  local bin=$1 name seeds log status=0
  name="$(basename "$bin" _fuzzer)"
  seeds="build/fuzz/seeds/$name"
  log="build/fuzz/logs/$name.log"
  rm -rf "$seeds" && mkdir -p "$seeds" build/fuzz/artifacts build/fuzz/logs
  "fuzz/seeds.sh" "$name" "$compat" "$seeds"
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=build/fuzz/artifacts/"$name"- "$seeds" >"$log" 2>&1 || status=$?
  printf 'fuzz: %s for %ss: exit %s (%s)\n%s\n' "$name" "$seconds" "$status" "$log" \
    "$(tail -n 12 "$log")"
  return "$status"
}
# As many targets at once as there are cores (libFuzzer runs one process on one core), so that
# each still gets `seconds` of a core of its own; fails if any target failed.
run_fuzzers() {
  local bin pid pids=() failed=0
  for bin in build/fuzz/*_fuzzer; do
    [ -x "$bin" ] || continue
    if ((${#pids[@]} >= $(nproc))); then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
    run_fuzzer "$bin" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return "$failed"
}
phase "fuzz run" run_fuzzers
