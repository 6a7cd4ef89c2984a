#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time (seconds, default 30),
# seeded from the compatibility corpus. Any crash, leak or sanitizer report fails the run.
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
run_fuzzers() {
  local bin name seeds
  for bin in build/fuzz/*_fuzzer; do
    [ -x "$bin" ] || continue
    name="$(basename "$bin" _fuzzer)"
    seeds="build/fuzz/seeds/$name"
    rm -rf "$seeds" && mkdir -p "$seeds"
    "fuzz/seeds.sh" "$name" "$compat" "$seeds"
    echo "fuzz: $name for ${seconds}s"
    mkdir -p build/fuzz/artifacts
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix=build/fuzz/artifacts/"$name"- "$seeds" \
      2>&1 | tail -n 12
  done
}
phase "fuzz run" run_fuzzers
