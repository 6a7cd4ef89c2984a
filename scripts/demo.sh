#!/usr/bin/env bash
# Sets up the machine, builds Sluice (Release) and runs the demo: a local warehouse holding a
# primary-key table written by Java Paimon (from the compatibility corpus), inspected with
# `sluice meta` at its latest snapshot and at its first one.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

scripts/setup.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target sluice
sluice="$here/build/release/sluice"

compat="${SLUICE_COMPAT_DIR:-$here/../shared/compat}"
warehouse="${SLUICE_DEMO_WAREHOUSE:-${TMPDIR:-/tmp}/sluice-demo-warehouse}"
table="$warehouse/default.db/pk_table"
rm -rf "$warehouse"
mkdir -p "$warehouse/default.db"
cp -r "$compat/tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv" "$table"
chmod -R u+w "$warehouse"

echo "== warehouse: $warehouse"
echo "== sluice meta $table (latest snapshot)"
"$sluice" meta "$table"
echo
echo "== sluice meta $table --snapshot 1"
"$sluice" meta "$table" --snapshot 1
