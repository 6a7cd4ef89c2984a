#!/usr/bin/env bash
# Builds the sluice Python package (python/) into build/python/venv (scripts/python_test.sh runs
# its tests, bench/run.sh python its benchmark).
#
# The package's extension links libsluice.so from an install of the Release tree build/release
# (the benchmarks' tree, configured as bench/run.sh configures it, so the two never reconfigure
# each other): the extension sees the public API only, as every embedder does, and is never
# built with the sanitizers of the test tree (a sanitized library would need its runtime
# preloaded into Python). pip builds the extension in a kept folder (build/python/ext) with
# ccache, so a re-run rebuilds only what changed. The environment holds
# python/requirements-test.txt (every version pinned, the build requirements among them).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
release="$here/build/release"
prefix="$here/build/python/prefix"
venv="$here/build/python/venv"
requirements="$here/python/requirements-test.txt"
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"

cmake -S "$here" -B "$release" -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_BENCH=ON >/dev/null
cmake --build "$release" -j"$(nproc)" --target sluice_shared sluice
cmake --install "$release" --prefix "$prefix" >/dev/null

if [ ! -x "$venv/bin/python" ] || [ "$requirements" -nt "$venv/.installed" ]; then
  echo "python: creating the package's environment ($venv)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$requirements"
  touch "$venv/.installed"
fi

SLUICE_PREFIX="$prefix" "$venv/bin/pip" install -q --disable-pip-version-check --no-deps \
  --no-build-isolation -Cbuild-dir="$here/build/python/ext" "$here/python"
