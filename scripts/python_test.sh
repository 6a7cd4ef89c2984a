#!/usr/bin/env bash
# Builds the sluice Python package (scripts/python_build.sh) and runs its tests (python/tests,
# pytest); the pypaimon side of the tests runs in build/pyenv/pypaimon (scripts/setup.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/python_build.sh"
export SLUICE_PYPAIMON_PYTHON="${SLUICE_PYPAIMON_PYTHON:-$here/build/pyenv/pypaimon/bin/python}"
# From the tests' folder, so that `import sluice` is the installed package, not python/sluice.
cd "$here/python/tests"
exec "$here/build/python/venv/bin/pytest" -q -p no:cacheprovider "$@"
