#!/usr/bin/env bash
# seeds.sh NAME COMPAT_DIR OUT_DIR: copies seed inputs for fuzz target NAME into OUT_DIR.
set -euo pipefail
name="$1"; compat="$2"; out="$3"
case "$name" in
  avro) find "$compat/tables" -path '*manifest*' -type f -size -64k | head -n 40 |
          while read -r f; do cp "$f" "$out/$(echo "$f" | md5sum | cut -c1-16)"; done ;;
  *) : ;;
esac
