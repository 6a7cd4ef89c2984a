#!/usr/bin/env bash
# Benchmarks. Usage: bench/run.sh parquet|orc|upsert|mor [--rows N]
# Builds what it needs in a Release build directory (build/release, -DSLUICE_BUILD_BENCH=ON) and
# runs it single-threaded; the last line of each benchmark is its RESULT line.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build/release"

usage() {
  echo "usage: bench/run.sh parquet|orc|upsert|mor [--rows N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
which="$1"
shift

cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_BENCH=ON >/dev/null
case "$which" in
  parquet)
    cmake --build "$build" -j2 --target parquet_bench >/dev/null
    exec "$build/parquet_bench" "$@"
    ;;
  orc)
    cmake --build "$build" -j2 --target orc_bench >/dev/null
    exec "$build/orc_bench" "$@"
    ;;
  upsert)
    cmake --build "$build" -j2 --target upsert_bench >/dev/null
    exec "$build/upsert_bench" "$@"
    ;;
  mor)
    cmake --build "$build" -j2 --target mor_bench >/dev/null
    exec "$build/mor_bench" "$@"
    ;;
  *)
    usage
    ;;
esac
