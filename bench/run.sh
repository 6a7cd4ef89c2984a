#!/usr/bin/env bash
# Benchmarks. Usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|lookup|changelog|dv-read|cross-partition-memory|peers-write|peers-scan [--rows N]
# Builds what it needs in a Release build directory (build/release, -DSLUICE_BUILD_BENCH=ON) and
# runs it single-threaded; the last line of each benchmark is its RESULT line. The peers-*
# benchmarks also build their Java side, the bench/java Maven project (offline, from ~/.m2).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build/release"

usage() {
  echo "usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|lookup|changelog|dv-read|cross-partition-memory|peers-write|peers-scan [--rows N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
which="$1"
shift

case "$which" in
  parquet | orc | upsert | mor | compact | dynamic-bucket | freshness | queue | lookup | changelog | dv-read | cross-partition-memory | peers-write | peers-scan) ;;
  *) usage ;;
esac

cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_BENCH=ON >/dev/null
target="${which//-/_}_bench"
cmake --build "$build" -j2 --target "$target" >/dev/null
case "$which" in
  # Maven's console library writes colour codes to stderr even in batch mode: kept out of the
  # benchmark's output unless the build fails.
  peers-*)
    mvn -o -q -B -f "$here/bench/java/pom.xml" package >"$build/bench_java_mvn.log" 2>&1 ||
      { cat "$build/bench_java_mvn.log" >&2; exit 1; } ;;
esac
exec "$build/$target" "$@"
