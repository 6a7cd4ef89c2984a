#!/usr/bin/env bash
# Builds the sluice Python package against the sanitized test tree (scripts/python_build.sh test)
# and runs its tests (python/tests, pytest) under ASan and UBSan; the pypaimon side of the tests
# runs in build/pyenv/pypaimon (scripts/setup.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/python_build.sh" test
export SLUICE_PYPAIMON_PYTHON="${SLUICE_PYPAIMON_PYTHON:-$here/build/pyenv/pypaimon/bin/python}"
# The sanitizers' runtimes must be the first libraries of the process that loads the sanitized
# libsluice.so. Python's own allocations are never freed at exit, so leaks are not reported; the
# pypaimon processes the tests start inherit the preload and run unchanged.
LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
export LD_PRELOAD
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# From the tests' folder, so that `import sluice` is the installed package, not python/sluice.
cd "$here/python/tests"
exec "$here/build/python/venv/bin/pytest" -q -p no:cacheprovider "$@"
