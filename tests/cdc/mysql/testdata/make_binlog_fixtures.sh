#!/usr/bin/env bash
# Regenerates the binlog fixtures of binlog_event_test.cc from a fresh MariaDB server of
# scripts/mariadb.sh on its own port (default 13391), stopped at the end:
#   binlog_full.bin     binlog_fixture.sql with binlog_row_metadata = FULL (the script's default)
#   binlog_minimal.bin  binlog_fixture_minimal.sql with binlog_row_metadata = MINIMAL
# and prints what the server returns for the tables (binary columns in hex), which the test's
# expected rows restate.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
port="${1:-13391}"
dir="$repo/build/mariadb/$port"
"$repo/scripts/mariadb.sh" stop --port "$port" >/dev/null
"$repo/scripts/mariadb.sh" start --port "$port"
trap '"$repo/scripts/mariadb.sh" stop --port "$port" >/dev/null' EXIT
sql() {
  mariadb --no-defaults --socket="$dir/mariadb.sock" --user=root --default-character-set=utf8mb4 \
    --batch "$@"
}
sql -e "FLUSH BINARY LOGS"
first="$(sql --skip-column-names -e "SHOW MASTER STATUS" | cut -f1)"
sql <"$here/binlog_fixture.sql"
sql -e "FLUSH BINARY LOGS; SET GLOBAL binlog_row_metadata = MINIMAL"
second="$(sql --skip-column-names -e "SHOW MASTER STATUS" | cut -f1)"
sql <"$here/binlog_fixture_minimal.sql"
sql -e "FLUSH BINARY LOGS"
cp "$dir/data/$first" "$here/binlog_full.bin"
cp "$dir/data/$second" "$here/binlog_minimal.bin"
sql -e "SET time_zone = '+00:00'; USE bl;
  SELECT * FROM t_int; SELECT * FROM t_num; SELECT * FROM t_time;
  SELECT id, c, cl, vc, vcl, tt, tx, mt, lt, HEX(bn), HEX(vb), HEX(tb), HEX(bl), HEX(mb),
         HEX(lb), e, s, el, j, c255 FROM t_str;
  SELECT id, HEX(bit1), HEX(bit12) FROM t_int;
  SELECT y, HEX(b), u, e, v, s, t FROM t_mix"
