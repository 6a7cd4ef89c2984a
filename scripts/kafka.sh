#!/usr/bin/env bash
# The Kafka broker of the CDC tests: one KRaft node (broker and controller) on 127.0.0.1, run
# from the Maven Central jars that scripts/kafka/pom.xml pins (scripts/setup.sh fetches them).
#
#   scripts/kafka.sh start|stop|status [--port N]
#   scripts/kafka.sh create-topic TOPIC [--partitions P] [--port N]
#   scripts/kafka.sh produce TOPIC [--port N]      (stdin: one message a line, KEY|VALUE)
#
# The broker listens on N (default 19092) and its controller on N+1. Its configuration, data,
# log (broker.log) and pid file live in build/kafka/<N>/. `start` is idempotent (a running
# broker is left as it is); a stopped one starts on fresh, empty storage, so every test run sees
# only its own topics. ctest starts it once per run through the `kafka` fixture (CMakeLists.txt).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
pom="$here/scripts/kafka/pom.xml"
# Any fixed base64 UUID will do: the storage is re-formatted on every cold start.
cluster_id="c2x1aWNlLWthZmthLWNkYw"
start_timeout_s=120
stop_timeout_s=30

usage() {
  echo "usage: $0 start|stop|status [--port N]" >&2
  echo "       $0 create-topic TOPIC [--partitions P] [--port N]" >&2
  echo "       $0 produce TOPIC [--port N]   (stdin: KEY|VALUE lines)" >&2
  exit 2
}

[ $# -ge 1 ] || usage
command=$1
shift
topic=""
if [ "$command" = create-topic ] || [ "$command" = produce ]; then
  [ $# -ge 1 ] || usage
  topic=$1
  shift
fi
port=19092
partitions=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port)
      [ $# -ge 2 ] || usage
      port=$2
      shift 2
      ;;
    --partitions)
      [ $# -ge 2 ] || usage
      partitions=$2
      shift 2
      ;;
    *) usage ;;
  esac
done
[[ "$port" =~ ^[0-9]+$ ]] || usage
[[ "$partitions" =~ ^[0-9]+$ ]] || usage
controller_port=$((port + 1))
dir="$here/build/kafka/$port"
pid_file="$dir/broker.pid"
log_file="$dir/broker.log"

server_name=kafka
pid_marker="$dir/server.properties"
source "$here/scripts/loopback_server.sh"

# The broker's classpath, resolved from ~/.m2 once and cached until the pom changes.
classpath() { maven_classpath "$pom" "$here/build/kafka/classpath.txt" "the broker's jars"; }

write_config() {
  cat >"$dir/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
# Tests create their topics with the partitions they need; a typo must fail, not create one.
auto.create.topics.enable=false
num.partitions=1
# One node: every internal topic has one replica, and one partition, so that the first group
# commit does not wait for fifty __consumer_offsets partitions.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# A small machine shared with builds: few threads, a small cleaner buffer.
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=8388608
EOF
}

start() {
  local pid cp start_s=$SECONDS
  pid="$(running_pid)"
  if [ -n "$pid" ]; then
    echo "kafka: already running on 127.0.0.1:$port (pid $pid)"
    return 0
  fi
  if port_open; then
    echo "kafka: 127.0.0.1:$port is taken by another process" >&2
    return 1
  fi
  cp="$(classpath)"
  rm -rf "$dir"
  mkdir -p "$dir/data"
  write_config
  # -XX:TieredStopAtLevel=1 and the serial collector start the JVM faster; a test broker never
  # runs long enough for C2 to pay off.
  local jvm=(java -Xms64m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData
    -Djava.awt.headless=true -Dorg.slf4j.simpleLogger.defaultLogLevel=info
    -Dorg.slf4j.simpleLogger.showDateTime=true -cp "$cp")
  "${jvm[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" \
    >"$dir/format.log" 2>&1 || {
    cat "$dir/format.log" >&2
    echo "kafka: formatting $dir/data failed" >&2
    return 1
  }
  # Its own session, stdio detached: ctest waits for the start step's output to close, and must
  # not kill the broker with the step's process group.
  without_inherited_fds setsid "${jvm[@]}" kafka.Kafka "$dir/server.properties" </dev/null >"$log_file" 2>&1 &
  echo $! >"$pid_file"
  pid=$!
  # Ready when the server says so and the port answers; the log line comes after the listeners
  # accept requests.
  while ((SECONDS - start_s < start_timeout_s)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$log_file" >&2
      echo "kafka: the broker exited during startup (log: $log_file)" >&2
      rm -f "$pid_file"
      return 1
    fi
    if grep -q "Kafka Server started" "$log_file" && port_open; then
      echo "kafka: started on 127.0.0.1:$port (pid $pid) in $((SECONDS - start_s)) s"
      return 0
    fi
    sleep 0.2
  done
  tail -n 30 "$log_file" >&2
  echo "kafka: not ready within $start_timeout_s s (log: $log_file); stopping it" >&2
  stop
  return 1
}

# Kafka's own tools, as kafka-topics.sh and kafka-console-producer.sh run them.
tool() {
  java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$(classpath)" "$@"
}

create_topic() {
  tool org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$port" --create \
    --if-not-exists --topic "$topic" --partitions "$partitions" --replication-factor 1
}

produce() {
  tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server "127.0.0.1:$port" \
    --topic "$topic" --reader-property parse.key=true --reader-property key.separator='|'
}

case "$command" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  create-topic) create_topic ;;
  produce) produce ;;
  *) usage ;;
esac
