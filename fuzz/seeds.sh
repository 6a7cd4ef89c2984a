#!/usr/bin/env bash
# seeds.sh NAME COMPAT_DIR OUT_DIR: copies seed inputs for fuzz target NAME into OUT_DIR.
set -euo pipefail
name="$1"; compat="$2"; out="$3"
case "$name" in
  # (mapfile, not `find | head`: head closing the pipe would fail the script under pipefail)
  avro) mapfile -t files < <(find "$compat/tables" -path '*manifest*' -type f -size -64k | sort)
        for f in "${files[@]:0:40}"; do cp "$f" "$out/$(echo "$f" | md5sum | cut -c1-16)"; done ;;
  binary_row)
    # Byte 0 selects the row type and framing (see fuzz/binary_row_fuzzer.cc); the rows are the
    # Java-written examples of format-spec 5.9.
    seed() { echo "$2" | tr -d ' ' | xxd -r -p > "$out/$1"; }
    seed key "00 0000000000000000 416c696365000085 0100000000000000"
    seed key_nulls_serialized "04 00000002 0003000000000000 0000000000000000 0000000000000000"
    seed stats16 "01 0000070000000000 0000000000000000 8000000000000000 0080000000000000
      0000008000000000 01608db1e7f6ffff ec519ac400000000 2c5286b48065d2c1 6161000000000082
      0000000000000000 0000000000000000 0000000000000000 78e0010088000000 9809000000000000
      eaffffffffffffff 2efd69b6ffffffff 0800000090000000 f3e0010000000000 112210f4b16c1cb1
      0000000000000000"
    ;;
  orc)
    # Java-written ORC data files and manifests, plus the ORC project's examples.
    # (awk, not head: head would close the pipe early and fail the script under pipefail.)
    { find "$compat/tables" -name '*.orc' -size -64k | awk 'NR <= 30'
      find "$compat/tables" -path '*manifest*' -type f -size -16k | while read -r f; do
        if [ "$(head -c 3 "$f")" = "ORC" ]; then echo "$f"; fi; done | awk 'NR <= 20'
      find "$compat/../external/orc-examples" -name '*.orc' -size -64k 2>/dev/null || true
    } | while read -r f; do cp "$f" "$out/$(echo "$f" | md5sum | cut -c1-16)"; done ;;
  parquet)
    # Small Java-written Parquet data files, plus parquet-testing's good and bad
    # files (small ones only, so that the fuzzer starts fast).
    { find "$compat/tables" -name '*.parquet' -size -8k | awk 'NR <= 30'
      find "$compat/../external/parquet-testing/data" "$compat/../external/parquet-testing/bad_data" \
        -name '*.parquet' -size -16k 2>/dev/null || true
    } | while read -r f; do cp "$f" "$out/$(echo "$f" | md5sum | cut -c1-16)"; done ;;
  snappy)
    # Mode byte 0: a block ("hello", then a copy of 6 bytes from 5 back); mode byte 1: data to
    # compress (a text and a run).
    printf '\x00\x0b\x10hello\x16\x05\x00' > "$out/block"
    { printf '\x01'; head -c 4000 "$(dirname "$0")/../README.md"; } > "$out/text"
    { printf '\x01'; printf 'a%.0s' $(seq 300); } > "$out/run" ;;
  cdc_record_parser)
    # Byte 0: bit 0 also makes the text the message key, bit 1 adds the to-string mapping.
    printf '\x00{"data":[{"id":"1","v":"a"}],"old":[{"v":"b"}],"type":"UPDATE","database":"d","table":"t","pkNames":["id"],"mysqlType":{"id":"int(11)","v":"enum(\x27a\x27,\x27b\x27)"}}' > "$out/canal"
    printf '\x01{"schema":{"type":"struct","fields":[{"field":"after","type":"struct","fields":[{"field":"d","type":"int32","name":"io.debezium.time.Date"},{"field":"n","type":"bytes","name":"org.apache.kafka.connect.data.Decimal","parameters":{"scale":"2"}}]}]},"payload":{"before":{"d":1,"n":"MDk="},"after":{"d":2,"n":1.5},"op":"u","source":{"db":"d","table":"t"}}}' > "$out/debezium"
    printf '\x02{"database":"d","table":"t","type":"update","data":{"id":1},"old":{"id":2}}' > "$out/maxwell"
    printf '\x00{"table":"A.B","op_type":"U","before":{"ID":1},"after":{"ID":2},"primary_keys":["ID"]}' > "$out/ogg"
    printf '\x00{"data":{"id":1,"BI_id":2},"metadata":{"record-type":"data","operation":"update","schema-name":"s","table-name":"t"}}' > "$out/dms" ;;
  binlog_event)
    # Byte 0 is the mode (see fuzz/binlog_event_fuzzer.cc): the binlog files MariaDB wrote for
    # the decoder's tests, resealed after mutation or not, with members and a zone or not.
    for f in "$(dirname "$0")"/../tests/cdc/mysql/testdata/*.bin; do
      for mode in 00 01 65 7d; do
        { printf "\\x$mode"; cat "$f"; } > "$out/$mode-$(basename "$f")"
      done
    done ;;
  pgoutput)
    # Frames (a 2-byte length each, see fuzz/pgoutput_fuzzer.cc): a Relation, an Insert with an
    # array, a NULL and bytea, an Update with an old key and an unchanged TOAST value, a Delete,
    # a Commit, and a keepalive.
    python3 - "$out/stream" <<'PY'
import struct, sys
def xlog(payload):
    return b"w" + struct.pack(">QQQ", 1, 2, 0) + payload
def text(value):
    return b"t" + struct.pack(">I", len(value)) + value
relation = (b"R" + struct.pack(">I", 7) + b"public\0t\0d" + struct.pack(">H", 3) +
            b"\1id\0" + struct.pack(">Ii", 23, -1) + b"\0a\0" + struct.pack(">Ii", 1007, -1) +
            b"\0b\0" + struct.pack(">Ii", 17, -1))
insert = b"I" + struct.pack(">I", 7) + b"N" + struct.pack(">H", 3) + text(b"1") + text(b'{1,NULL,"a b"}') + text(b"\\x0aff")
update = (b"U" + struct.pack(">I", 7) + b"K" + struct.pack(">H", 3) + text(b"1") + b"nn" +
          b"N" + struct.pack(">H", 3) + text(b"2") + b"u" + b"n")
delete = b"D" + struct.pack(">I", 7) + b"K" + struct.pack(">H", 3) + text(b"2") + b"nn"
commit = b"C\0" + struct.pack(">QQq", 5, 6, 0)
keepalive = b"k" + struct.pack(">Qq", 9, 0) + b"\1"
frames = [xlog(relation), xlog(insert), xlog(update), xlog(delete), xlog(commit), keepalive]
with open(sys.argv[1], "wb") as f:
    for frame in frames:
        f.write(struct.pack(">H", len(frame)) + frame)
PY
    ;;
  rest_request)
    # Byte 0 is the method (0 GET, 1 POST, 2 DELETE); the target, '\n', the body.
    printf '\x01/v1/paimon/databases/sales/tables\n{"identifier":{"database":"sales","object":"t"},"schema":{"fields":[{"id":0,"name":"id","type":"BIGINT NOT NULL"},{"id":1,"name":"r","type":{"type":"ROW","fields":[{"id":2,"name":"a","type":"INT"}]}}],"partitionKeys":[],"primaryKeys":["id"],"options":{"bucket":"2"},"comment":"c"}}' > "$out/create_table"
    printf '\x01/v1/paimon/databases/sales/tables/t\n{"changes":[{"action":"addColumn","fieldNames":["n"],"dataType":"STRING","comment":null,"move":{"fieldName":"n","referenceFieldName":"id","type":"AFTER"}},{"action":"setOption","key":"k","value":"v"},{"action":"updateColumnType","fieldNames":["id"],"newDataType":"BIGINT","keepNullability":true}]}' > "$out/alter_table"
    printf '\x01/v1/paimon/tables/rename\n{"source":{"database":"a","object":"t"},"destination":{"database":"b","object":"u"}}' > "$out/rename"
    printf '\x00/v1/paimon/databases?maxResults=2&pageToken=d%%2B1' > "$out/list"
    printf '\x00/v1/paimon/databases/s%%20a/tables/t%%24branch_b/snapshot' > "$out/snapshot"
    printf '\x01/v1/paimon/databases\n{"name":"sales","options":{"a":"b"}}' > "$out/create_database" ;;
  *) : ;;
esac
