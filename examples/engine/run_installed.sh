#!/bin/bash
# Installs the Sluice build in BUILD_DIR into a temporary prefix, builds examples/engine against
# the installed package (find_package(Sluice)), checks pkg-config sees it too, and runs it.
# Usage: run_installed.sh BUILD_DIR SOURCE_DIR [extra CMake flags for the example...]
set -euo pipefail
build_dir=$1
source_dir=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/include/sluice/table.h"
test ! -e "$work/prefix/include/sluice/table/file_store_table.h"
pc_dir=$(dirname "$(find "$work/prefix" -name sluice.pc)")
PKG_CONFIG_PATH="$pc_dir" pkg-config --modversion sluice
test -f "$(PKG_CONFIG_PATH="$pc_dir" pkg-config --variable=includedir sluice)/sluice/table.h"
cmake -S "$source_dir/examples/engine" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Debug "$@" > "$work/configure.log"
cmake --build "$work/build" -j2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
mkdir -p "$work/exchange"
"$work/build/engine" run "$work/warehouse" "$work/exchange"
