#!/usr/bin/env bash
# Installs everything Sluice's build, tests and benchmarks need on a Debian 12 machine.
# Idempotent and non-interactive; run as root (or with sudo available).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"

packages=(
  build-essential cmake ninja-build pkg-config ccache git clang clang-format libclang-rt-14-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libzstd-dev liblz4-dev libsnappy-dev zlib1g-dev
  nlohmann-json3-dev libfmt-dev libcli11-dev libroaring-dev libxxhash-dev
  librocksdb-dev librdkafka-dev libmariadb-dev libpq-dev libyaml-cpp-dev
  zstd xxd
  # The MariaDB server and client of the CDC tests (scripts/mariadb.sh), and the PostgreSQL
  # server of the logical replication tests (scripts/postgres.sh).
  mariadb-server mariadb-client postgresql-15 postgresql-client-15
  # The metrics endpoint's HTTP server (cpp-httplib), and the Prometheus server of the metrics
  # tests (scripts/prometheus.sh, which polls it with curl).
  libcpp-httplib-dev prometheus curl
  # The S3 FileIO's HTTP client (libcurl) and its Signature V4 hashing (OpenSSL's libcrypto).
  libcurl4-openssl-dev libssl-dev
)
# Node.js may come from elsewhere (e.g. NodeSource, whose nodejs conflicts with Debian's npm):
# install Debian's only when the commands are missing.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Independent oracles for the tests (avsc for Avro, DuckDB for Parquet), pinned by the lock file.
# A link (a worktree sharing another tree's packages) is used as it is, never reinstalled through.
if [ ! -L "$here/tests/oracle/node_modules" ] && { [ ! -d "$here/tests/oracle/node_modules" ] ||
  [ "$here/tests/oracle/package-lock.json" -nt "$here/tests/oracle/node_modules" ]; }; then
  (cd "$here/tests/oracle" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$here/tests/oracle/node_modules"
fi

# Python oracles of the interop tests (tests/interop_arrow): pyarrow (Arrow C++'s Parquet and
# ORC) and pypaimon, each in its own virtual environment under build/pyenv/ (pypaimon pins an
# older pyarrow), installed from the pinned requirement files once and reused after that.
python3 -m venv --help >/dev/null 2>&1 || {
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3 python3-venv
}
# A linked build/pyenv (a worktree sharing another tree's environments; a fresh checkout's
# requirement files look newer than them) is used as it is: rebuilding would delete the other's.
for env in arrow pypaimon; do
  requirements="$here/tests/interop_arrow/python/requirements-$env.txt"
  venv="$here/build/pyenv/$env"
  if [ -L "$here/build/pyenv" ] && [ -x "$venv/bin/python" ]; then continue; fi
  if [ ! -x "$venv/bin/python" ] || [ "$requirements" -nt "$venv/.installed" ]; then
    echo "setup: creating the $env Python environment ($venv)"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$requirements"
    touch "$venv/.installed"
  fi
done
# --- Interop (issue #10): the Java Paimon oracle (tests/interop/java), versions pinned in its
# pom.xml. The first run fetches them into ~/.m2; later runs build offline from that cache.
if ! command -v javac >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    openjdk-17-jdk-headless maven
fi
# The Flink driver (tests/interop/flink) is a project of its own: Paimon's Flink connector
# bundles Paimon.
for interop_project in java flink; do
  interop_pom="$here/tests/interop/$interop_project/pom.xml"
  if ! mvn -q -o -f "$interop_pom" package >/dev/null 2>&1; then
    echo "setup: fetching the Maven artifacts of tests/interop/$interop_project"
    mvn -q -f "$interop_pom" package
  fi
done
# --- end interop ---
# --- Kafka (issue 31): the broker of the CDC tests (scripts/kafka.sh), Apache Kafka's jars from
# Maven Central pinned in scripts/kafka/pom.xml. The first run fetches them into ~/.m2; later
# runs resolve them offline.
kafka_pom="$here/scripts/kafka/pom.xml"
if ! mvn -B -q -o -f "$kafka_pom" dependency:resolve >/dev/null 2>&1; then
  echo "setup: fetching the Maven artifacts of scripts/kafka"
  mvn -B -q -f "$kafka_pom" dependency:resolve
fi
# --- end kafka ---
# --- S3 (issue 36): the S3-compatible server of the object storage tests (scripts/s3.sh),
# S3Proxy's jars from Maven Central pinned in scripts/s3/pom.xml. The first run fetches them
# into ~/.m2; later runs resolve them offline.
s3_pom="$here/scripts/s3/pom.xml"
if ! mvn -B -q -o -f "$s3_pom" dependency:resolve >/dev/null 2>&1; then
  echo "setup: fetching the Maven artifacts of scripts/s3"
  mvn -B -q -f "$s3_pom" dependency:resolve
fi
# --- end s3 ---
# --- Debezium (issue 31): the real debezium-json producer of the CDC tests (tests/cdc/debezium:
# Debezium's embedded engine and MariaDB connector), versions pinned in its pom.xml. The first
# run fetches them into ~/.m2; later runs build offline from that cache.
debezium_pom="$here/tests/cdc/debezium/pom.xml"
if ! mvn -B -q -o -f "$debezium_pom" package >/dev/null 2>&1; then
  echo "setup: fetching the Maven artifacts of tests/cdc/debezium"
  mvn -B -q -f "$debezium_pom" package
fi
# --- end debezium ---
# --- Debezium benchmark (issue 32): bench/debezium, the Debezium side of bench/run.sh cdc-mysql
# and cdc-postgres, on the same pinned versions as tests/cdc/debezium (so the fetch above serves
# it, but for the PostgreSQL connector and its JDBC driver).
bench_debezium_pom="$here/bench/debezium/pom.xml"
if ! mvn -B -q -o -f "$bench_debezium_pom" package >/dev/null 2>&1; then
  echo "setup: fetching the Maven artifacts of bench/debezium"
  mvn -B -q -f "$bench_debezium_pom" package
fi
# --- end debezium benchmark ---
# --- Java Paimon benchmarks (issues 16, 36): bench/java, the Java side of bench/run.sh peers-*
# and s3, on the same pinned Paimon as tests/interop, plus paimon-s3 for the s3 benchmark.
bench_java_pom="$here/bench/java/pom.xml"
if ! mvn -B -q -o -f "$bench_java_pom" package >/dev/null 2>&1; then
  echo "setup: fetching the Maven artifacts of bench/java"
  mvn -B -q -f "$bench_java_pom" package
fi
# --- end java benchmarks ---
