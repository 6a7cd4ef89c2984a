#!/usr/bin/env bash
# Sets up the machine, builds Sluice (Release) and runs the demo on a local warehouse:
#
#   1. a primary-key table with the partial-update merge engine (customer profiles assembled
#      from several sources) is created, written in four batches of generated JSON lines / CSV
#      (inserts, partial updates, a delete), read after each batch, compacted, read again, read
#      as of its first snapshot, and its snapshots listed;
#   2. a primary-key table written by Java Paimon (from the compatibility corpus) is read and
#      its snapshots listed, to show that Sluice reads Java's tables as its own;
#   3. a Kafka broker is started, a few debezium-json change records (one with a new column)
#      are produced, `sluice action kafka_sync_database` syncs them into Paimon tables, which
#      are read; the broker is stopped.
#
# Every step prints the command it runs and what it shows.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

scripts/setup.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target sluice
sluice="$here/build/release/sluice"

compat="${SLUICE_COMPAT_DIR:-$here/../shared/compat}"
warehouse="${SLUICE_DEMO_WAREHOUSE:-${TMPDIR:-/tmp}/sluice-demo-warehouse}"
inputs="$warehouse/inputs"
rm -rf "$warehouse"
mkdir -p "$inputs"

step() {
  echo
  echo "== $1"
}
run() {
  echo "\$ sluice $*"
  "$sluice" "$@"
}

echo "warehouse: $warehouse"

step "1. A primary-key table whose rows are merged column by column (merge-engine=partial-update):"
echo "   a non-null value replaces the column, a null leaves it; -D removes the customer."
run create-database shop --warehouse "$warehouse"
run create-table shop.customers --warehouse "$warehouse" \
  --column 'id BIGINT NOT NULL' --column 'name STRING' --column 'country STRING' \
  --column 'plan STRING' --column 'balance DECIMAL(10, 2)' --column 'updated_at TIMESTAMP(3)' \
  --primary-key id --option bucket=2 --option merge-engine=partial-update \
  --option partial-update.remove-record-on-delete=true

step "2. Batch 1, from the sign-up service: four new customers (name and country only)."
cat >"$inputs/1-signups.jsonl" <<'JSON'
{"id": 1, "name": "Ada", "country": "UK", "updated_at": "2024-05-01 09:00:00.000"}
{"id": 2, "name": "Grace", "country": "US", "updated_at": "2024-05-01 09:05:00.000"}
{"id": 3, "name": "Edsger", "country": "NL", "updated_at": "2024-05-01 09:10:00.000"}
{"id": 4, "name": "Barbara", "country": "US", "updated_at": "2024-05-01 09:15:00.000"}
JSON
cat "$inputs/1-signups.jsonl"
run write shop.customers --warehouse "$warehouse" --input "$inputs/1-signups.jsonl"
run read shop.customers --warehouse "$warehouse"

step "3. Batch 2, from billing: plan and balance for three customers, as updates (+U)."
echo "   Only the columns billing knows are set; the names and countries stay."
cat >"$inputs/2-billing.jsonl" <<'JSON'
{"_ROW_KIND": "+U", "id": 1, "plan": "pro", "balance": "120.00"}
{"_ROW_KIND": "+U", "id": 2, "plan": "free", "balance": "0"}
{"_ROW_KIND": "+U", "id": 3, "plan": "team", "balance": "75.5"}
JSON
cat "$inputs/2-billing.jsonl"
run write shop.customers --warehouse "$warehouse" --input "$inputs/2-billing.jsonl"
run read shop.customers --warehouse "$warehouse"

step "4. Batch 3, a CSV export from support: Grace moved, Barbara left (-D), Alan signed up."
cat >"$inputs/3-support.csv" <<'CSV'
_ROW_KIND,id,name,country,plan,updated_at
+U,2,,CA,,2024-05-02 14:00:00.000
-D,4,,,,
+I,5,Alan,UK,free,2024-05-02 15:30:00.000
CSV
cat "$inputs/3-support.csv"
run write shop.customers --warehouse "$warehouse" --input "$inputs/3-support.csv"
run read shop.customers --warehouse "$warehouse"

step "5. Batch 4: 10000 generated balance updates for customers 1, 2, 3 and 5 (the last wins)."
ids=(1 2 3 5)
for i in $(seq 1 10000); do
  printf '{"_ROW_KIND": "+U", "id": %d, "balance": "%d.%02d"}\n' "${ids[i % 4]}" $((i / 100)) $((i % 100))
done >"$inputs/4-balances.jsonl"
head -n 3 "$inputs/4-balances.jsonl"
echo "..."
tail -n 4 "$inputs/4-balances.jsonl"
run write shop.customers --warehouse "$warehouse" --input "$inputs/4-balances.jsonl" --batch-rows 2000
run read shop.customers --warehouse "$warehouse"

step "6. The snapshots so far: one APPEND per write (the writers may also have compacted)."
run snapshots shop.customers --warehouse "$warehouse"

step "7. Full compaction: every bucket merged into one sorted run at the highest level."
run compact shop.customers --warehouse "$warehouse" --full
run snapshots shop.customers --warehouse "$warehouse"
echo "The rows are the same after compaction:"
run read shop.customers --warehouse "$warehouse"

step "8. Time travel: the table as the first snapshot left it."
run read shop.customers --warehouse "$warehouse" --snapshot 1 --format jsonl

step "9. A primary-key table written by Java Paimon (deletion vectors), read by Sluice."
mkdir -p "$warehouse/default.db"
cp -r "$compat/tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv" \
  "$warehouse/default.db/pk_table"
chmod -R u+w "$warehouse/default.db"
run snapshots default.pk_table --warehouse "$warehouse"
run read default.pk_table --warehouse "$warehouse"
echo "Its metadata at snapshot 1 (schema, manifests, entries; first lines):"
echo "\$ sluice meta $warehouse/default.db/pk_table --snapshot 1 | head -n 20"
"$sluice" meta "$warehouse/default.db/pk_table" --snapshot 1 | head -n 20 || true

step "10. CDC from Kafka without a JVM job: a broker, Debezium messages, kafka_sync_database."
echo "   A real Kafka broker (scripts/kafka.sh, Apache Kafka from Maven Central) takes a few"
echo "   debezium-json change records of two MySQL tables; \`sluice action kafka_sync_database\`,"
echo "   Java Paimon's action with Java's arguments, creates the Paimon tables (keys from the"
echo "   message keys), applies the changes, adds the column that appears mid-stream, and"
echo "   commits the Kafka offsets with the rows (a restart resumes exactly there)."
kafka_port="${SLUICE_DEMO_KAFKA_PORT:-19392}"
scripts/kafka.sh start --port "$kafka_port"
trap 'scripts/kafka.sh stop --port "$kafka_port" >/dev/null' EXIT
topic="shop_cdc_$(date +%s)"
scripts/kafka.sh create-topic "$topic" --port "$kafka_port" 2>/dev/null
cat >"$inputs/5-debezium.txt" <<'MESSAGES'
{"id":1}|{"before":null,"after":{"id":1,"customer":"Ada","total":"12.50"},"source":{"db":"shop","table":"orders"},"op":"c","ts_ms":1714550400000}
{"id":2}|{"before":null,"after":{"id":2,"customer":"Grace","total":"7.00"},"source":{"db":"shop","table":"orders"},"op":"c","ts_ms":1714550401000}
{"sku":"p-1"}|{"before":null,"after":{"sku":"p-1","stock":40},"source":{"db":"shop","table":"products"},"op":"c","ts_ms":1714550402000}
{"id":1}|{"before":{"id":1,"customer":"Ada","total":"12.50"},"after":{"id":1,"customer":"Ada","total":"15.00"},"source":{"db":"shop","table":"orders"},"op":"u","ts_ms":1714550403000}
{"id":2}|{"before":{"id":2,"customer":"Grace","total":"7.00"},"after":null,"source":{"db":"shop","table":"orders"},"op":"d","ts_ms":1714550404000}
{"id":3}|{"before":null,"after":{"id":3,"customer":"Alan","total":"3.20","coupon":"SPRING"},"source":{"db":"shop","table":"orders"},"op":"c","ts_ms":1714550405000}
MESSAGES
echo "\$ scripts/kafka.sh produce $topic   (KEY|VALUE lines)"
cat "$inputs/5-debezium.txt"
scripts/kafka.sh produce "$topic" --port "$kafka_port" <"$inputs/5-debezium.txt"
run action kafka_sync_database --warehouse "$warehouse" --database ods \
  --kafka_conf "properties.bootstrap.servers=127.0.0.1:$kafka_port" --kafka_conf "topic=$topic" \
  --kafka_conf value.format=debezium-json --kafka_conf scan.startup.mode=earliest-offset \
  --stop_at_end true
echo "(Without --stop_at_end the job keeps running and commits every --commit_interval, 1 s by"
echo " default; SIGTERM commits what it read and exits.)"
run list ods --warehouse "$warehouse"
run read ods.orders --warehouse "$warehouse"
run read ods.products --warehouse "$warehouse"
run snapshots ods.orders --warehouse "$warehouse"
