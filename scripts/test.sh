#!/usr/bin/env bash
# Sets up the machine, builds the Debug + AddressSanitizer/UBSan tree and runs every test
# (unit and scenario), then the fuzz targets for a bounded time.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
source scripts/phase.sh

phase setup scripts/setup.sh
jobs="$(nproc)"
# Ninja (installed by setup.sh) schedules the whole build graph at once and has less overhead
# than Make. CMake reads CMAKE_GENERATOR for new build trees only: an existing build/debug keeps
# the generator it was made with; the fuzz tree and the installed-package example follow too.
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"

# No include or CMake dependency may run up the layer order (../shared/docs/architecture.md).
phase "layer check" python3 scripts/check_layers.py
# No test may expect an error without pinning its code and message (tests/test_util.h HasError).
phase "test check" python3 scripts/check_tests.py

phase configure cmake -S . -B build/debug -DCMAKE_BUILD_TYPE=Debug -DSLUICE_SANITIZE=ON >/dev/null
phase build cmake --build build/debug -j"$jobs"
phase ctest ctest --test-dir build/debug -j"$jobs" --output-on-failure
# The Python package against a Release libsluice.so (no sanitizers), and its pytest tests.
phase python scripts/python_test.sh

scripts/fuzz.sh "${SLUICE_FUZZ_SECONDS:-30}"
