#!/usr/bin/env bash
# Benchmarks. Usage: bench/run.sh NAME [--rows N], NAME one of the list in usage() below.
# Builds what it needs in a Release build directory (build/release, -DSLUICE_BUILD_BENCH=ON) and
# runs it single-threaded; the last line of each benchmark is its RESULT line. The peers-*
# benchmarks (issue 16) also build their Java side, the bench/java Maven project (offline, from
# ~/.m2), and peers-scan reads with pypaimon-rust from a virtual environment of its own
# (build/release/pyenv/pypaimon-rust, installed once from bench/python's pinned requirements and
# reused offline). `peers` runs every peers-* benchmark and ends with one RESULT line holding
# all their keys. `tpch` (issue 15) runs TPC-H through sluice sql against DuckDB over Parquet;
# `python` races Sluice's Python package against pypaimon
# (build/pyenv/pypaimon, scripts/setup.sh) and pypaimon-rust (the same environment as peers-scan).
# `cdc-mysql` and `cdc-postgres` (issue 32) also build their Debezium side, the bench/debezium
# Maven project (offline, from ~/.m2), and run their own server (scripts/mariadb.sh, port 13596;
# scripts/postgres.sh, port 15596). `service` (issue 33) runs `sluice serve` compacting for
# write-only writers, then the same writers compacting inline. `s3` (issue 36) writes and scans a
# table on an S3Proxy server of its own (scripts/s3.sh start --port 19410, stopped at the end),
# against Java Paimon's paimon-s3 (bench/java). `catalog` (issue 35) gets and creates tables through
# the filesystem catalog, JDBC on SQLite and on a PostgreSQL server of its own (scripts/postgres.sh,
# port 18251, stopped at the end), and REST against Sluice's server (port 18250) and Java's test
# server (RESTCatalogServer from paimon-core's test jar, bench/java CatalogBench).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build/release"
peers=(peers-write peers-scan peers-mor peers-lookup peers-scaling)

usage() {
  echo "usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|cdc-kafka|cdc-mysql|cdc-postgres|service|lookup|changelog|dv-read|cross-partition-memory|python|tpch|s3|catalog|peers|${peers[*]// /|} [--rows N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
which="$1"
shift

case "$which" in
  parquet | orc | upsert | mor | compact | dynamic-bucket | freshness | queue | cdc-kafka | cdc-mysql | cdc-postgres | service | lookup | changelog | dv-read | cross-partition-memory | python | tpch | s3 | catalog | peers | peers-*) ;;
  *) usage ;;
esac

# paimon-rust's Python binding, in a virtual environment of its own made once from the pinned
# requirements and reused offline.
rust_venv="$build/pyenv/pypaimon-rust"
pypaimon_rust_env() {
  local requirements="$here/bench/python/requirements-pypaimon-rust.txt"
  if [ ! -x "$rust_venv/bin/python" ] || [ "$requirements" -nt "$rust_venv/.installed" ]; then
    echo "creating the pypaimon-rust environment ($rust_venv)" >&2
    rm -rf "$rust_venv"
    python3 -m venv "$rust_venv"
    "$rust_venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$requirements"
    touch "$rust_venv/.installed"
  fi
}

if [ "$which" = python ]; then
  "$here/scripts/python_build.sh" release
  pypaimon_rust_env
  exec "$here/build/python/venv/bin/python" "$here/bench/python_bench.py" \
    --pypaimon-python "$here/build/pyenv/pypaimon/bin/python" --rust-python "$rust_venv/bin/python" \
    --dir "$here/build/python" "$@"
fi
if [[ "$which" == peers-* && ! " ${peers[*]} " == *" $which "* ]]; then usage; fi

targets=()
if [ "$which" = peers ]; then
  for p in "${peers[@]}"; do targets+=("${p//-/_}_bench"); done
else
  targets+=("${which//-/_}_bench")
fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}" >/dev/null

if [[ "$which" == peers* ]] || [ "$which" = s3 ] || [ "$which" = catalog ]; then
  # Maven's console library writes colour codes to stderr even in batch mode: kept out of the
  # benchmark's output unless the build fails.
  mvn -o -q -B -f "$here/bench/java/pom.xml" package >"$build/bench_java_mvn.log" 2>&1 ||
    { cat "$build/bench_java_mvn.log" >&2; exit 1; }
fi
if [ "$which" = cdc-mysql ] || [ "$which" = cdc-postgres ]; then
  mvn -o -q -B -f "$here/bench/debezium/pom.xml" package >"$build/bench_debezium_mvn.log" 2>&1 ||
    { cat "$build/bench_debezium_mvn.log" >&2; exit 1; }
fi
if [ "$which" = peers ] || [ "$which" = peers-scan ]; then pypaimon_rust_env; fi

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
  exec "$build/tpch_bench" "$data" "$here/build/tpch/queries" "$here/build/tpch/warehouse" "$@"
fi
# s3: a server of its own on a port of its own (the tests' server on 19400 is left alone), its
# log counting the requests of each scan; stopped however the benchmark ends.
if [ "$which" = s3 ]; then
  s3_port=19410
  "$here/scripts/s3.sh" start --port "$s3_port" >/dev/null
  trap '"$here/scripts/s3.sh" stop --port "$s3_port" >/dev/null' EXIT
  SLUICE_S3_ENDPOINT="http://127.0.0.1:$s3_port" SLUICE_BENCH_S3_LOG="$here/build/s3/$s3_port/server.log" \
    SLUICE_BENCH_S3_DATA="$here/build/s3/$s3_port/data" "$build/s3_bench" "$@"
  exit
fi
# catalog: a PostgreSQL server of its own for the JDBC catalog (the tests' 15432 is left alone),
# stopped however the benchmark ends; without Debian's PostgreSQL the benchmark runs without it.
if [ "$which" = catalog ]; then
  pg_port=18251
  pg_uri=""
  if "$here/scripts/postgres.sh" start --port "$pg_port" >"$build/catalog_postgres.log" 2>&1; then
    trap '"$here/scripts/postgres.sh" stop --port "$pg_port" >/dev/null 2>&1' EXIT
    pg_uri="jdbc:postgresql://127.0.0.1:$pg_port/sluice"
  else
    echo "catalog: no PostgreSQL server ($build/catalog_postgres.log); measuring without it" >&2
  fi
  SLUICE_BENCH_POSTGRES_URI="$pg_uri" "$build/catalog_bench" "$@"
  exit
fi
if [ "$which" != peers ]; then
  exec "$build/${which//-/_}_bench" "$@"
fi
# Each benchmark's output as it runs (kept in build/release/<name>.log), with the machine's load
# before it; their RESULT keys gathered into the last line.
keys=""
for p in "${peers[@]}"; do
  echo "== $p ($(uptime | sed 's/.*load/load/'))"
  "$build/${p//-/_}_bench" "$@" | tee "$build/$p.log"
  keys+=" $(sed -n 's/^RESULT //p' "$build/$p.log" | tail -n 1)"
done
echo "RESULT${keys}"
