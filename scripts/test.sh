#!/usr/bin/env bash
# Sets up the machine, builds the Debug + AddressSanitizer/UBSan tree and runs every test
# (unit and scenario), then the fuzz targets for a bounded time.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

scripts/setup.sh
jobs="$(nproc)"

# No include or CMake dependency may run up the layer order (../shared/docs/architecture.md).
python3 scripts/check_layers.py
# No test may expect an error without pinning its code and message (tests/test_util.h HasError).
python3 scripts/check_tests.py

cmake -S . -B build/debug -DCMAKE_BUILD_TYPE=Debug -DSLUICE_SANITIZE=ON >/dev/null
cmake --build build/debug -j"$jobs"
(cd build/debug && ctest -j"$jobs" --output-on-failure)

scripts/fuzz.sh "${SLUICE_FUZZ_SECONDS:-30}"
