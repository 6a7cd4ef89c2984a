#!/usr/bin/env bash
# Builds the sluice Python package (python/) into build/python/venv against one build tree of the
# library:
#
#   scripts/python_build.sh release   the Release tree build/release, configured as bench/run.sh
#                                     configures it (bench/run.sh python, its benchmark)
#   scripts/python_build.sh test      the sanitized test tree build/debug, configured as
#                                     scripts/test.sh configures it (scripts/python_test.sh):
#                                     the tests then run the binding under ASan and UBSan, and CI
#                                     compiles the library once, not a second time at -O2
#
# The package's extension links libsluice.so from an install of that tree: it sees the public API
# only, as every embedder does. A sanitized library needs the sanitizers' runtimes loaded first
# (scripts/python_test.sh preloads them). pip builds the extension in a kept folder per tree
# (build/python/ext-<tree>) with ccache, so a re-run rebuilds only what changed. The environment
# holds python/requirements-test.txt (every version pinned, the build requirements among them).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tree="${1:-release}"
venv="$here/build/python/venv"
requirements="$here/python/requirements-test.txt"
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"

case "$tree" in
  release)
    build="$here/build/release"
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_BENCH=ON >/dev/null
    ;;
  test)
    build="$here/build/debug"
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSLUICE_SANITIZE=ON >/dev/null
    ;;
  *)
    echo "usage: $0 [release|test]" >&2
    exit 2
    ;;
esac
prefix="$here/build/python/prefix-$tree"
cmake --build "$build" -j"$(nproc)" --target sluice_shared sluice
cmake --install "$build" --prefix "$prefix" >/dev/null

if [ ! -x "$venv/bin/python" ] || [ "$requirements" -nt "$venv/.installed" ]; then
  echo "python: creating the package's environment ($venv)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$requirements"
  touch "$venv/.installed"
fi

SLUICE_PREFIX="$prefix" "$venv/bin/pip" install -q --disable-pip-version-check --no-deps \
  --no-build-isolation -Cbuild-dir="$here/build/python/ext-$tree" "$here/python"
