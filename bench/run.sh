#!/usr/bin/env bash
# Benchmarks. Usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|lookup|changelog|dv-read|cross-partition-memory|peers-write|peers-scan|python [--rows N]
# Builds what it needs in a Release build directory (build/release, -DSLUICE_BUILD_BENCH=ON) and
# runs it single-threaded; the last line of each benchmark is its RESULT line. The peers-*
# benchmarks also build their Java side, the bench/java Maven project (offline, from ~/.m2).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build/release"

usage() {
  echo "usage: bench/run.sh parquet|orc|upsert|mor|compact|dynamic-bucket|freshness|queue|lookup|changelog|dv-read|cross-partition-memory|peers-write|peers-scan|python [--rows N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
which="$1"
shift

case "$which" in
  parquet | orc | upsert | mor | compact | dynamic-bucket | freshness | queue | lookup | changelog | dv-read | cross-partition-memory | peers-write | peers-scan) ;;
  # The Python package against pypaimon (build/pyenv/pypaimon, scripts/setup.sh) and
  # pypaimon-rust (an environment of its own, bench/requirements-pypaimon-rust.txt).
  python)
    "$here/scripts/python_build.sh"
    rust_venv="$here/build/python/rust-venv"
    rust_requirements="$here/bench/requirements-pypaimon-rust.txt"
    if [ ! -x "$rust_venv/bin/python" ] || [ "$rust_requirements" -nt "$rust_venv/.installed" ]; then
      rm -rf "$rust_venv"
      python3 -m venv "$rust_venv"
      "$rust_venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$rust_requirements"
      touch "$rust_venv/.installed"
    fi
    exec "$here/build/python/venv/bin/python" "$here/bench/python_bench.py" \
      --pypaimon-python "$here/build/pyenv/pypaimon/bin/python" --rust-python "$rust_venv/bin/python" \
      --dir "$here/build/python" "$@" ;;
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
