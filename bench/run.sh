#!/usr/bin/env bash
# Benchmarks. Usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|lookup|changelog|dv-read|cross-partition-memory|peers-write|peers-scan|tpch [--rows N]
# Builds what it needs in a Release build directory (build/release, -DSLUICE_BUILD_BENCH=ON) and
# runs it single-threaded; the last line of each benchmark is its RESULT line. The peers-*
# benchmarks also build their Java side, the bench/java Maven project (offline, from ~/.m2).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build/release"

usage() {
  echo "usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|lookup|changelog|dv-read|cross-partition-memory|peers-write|peers-scan|tpch [--rows N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
which="$1"
shift

case "$which" in
  parquet | orc | upsert | mor | compact | dynamic-bucket | freshness | queue | lookup | changelog | dv-read | cross-partition-memory | peers-write | peers-scan | tpch) ;;
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
# TPC-H SF1 (issue 15): the pinned tools of bench/tpch/requirements.txt in build/tpch-venv, the
# data generated once into build/tpch/sf1 and written once into Sluice tables under
# build/tpch/warehouse; extra arguments go to tpch_bench (--threads N, --runs N).
if [ "$which" = tpch ]; then
  venv="$here/build/tpch-venv"
  if ! "$venv/bin/python" -c 'import duckdb_extension_tpch' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$here/bench/tpch/requirements.txt"
  fi
  data="$here/build/tpch/sf1"
  if [ ! -f "$data/lineitem.parquet" ]; then
    "$venv/bin/tpchgen-cli" parquet -s 1 --output-dir="$data" >/dev/null
  fi
  "$venv/bin/python" "$here/bench/tpch/write_queries.py" "$here/build/tpch/queries"
  exec "$build/$target" "$data" "$here/build/tpch/queries" "$here/build/tpch/warehouse" "$@"
fi
exec "$build/$target" "$@"
