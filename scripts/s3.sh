#!/usr/bin/env bash
# The S3-compatible server of the object storage tests: S3Proxy (from the Maven Central jars
# that scripts/s3/pom.xml pins; scripts/setup.sh fetches them) with its filesystem backend, on
# 127.0.0.1. It checks AWS Signature V4 against one fixed test identity:
#
#   access key sluice-test, secret key sluice-test-secret, region us-east-1, path-style access
#
# and starts with one empty bucket, `sluice`, for the tests (each test works under a prefix of
# its own).
#
#   scripts/s3.sh start|stop|restart|status [--port N]
#
# The server listens on N (default 19400). Its configuration, objects (data/<bucket>/), log
# (server.log) and pid file live in build/s3/<N>/. `start` is idempotent (a running server is
# left as it is); a stopped one starts on fresh, empty storage. `restart` stops the server if it
# runs (or finds it gone, killed by a fault test) and starts it again on the SAME storage: the
# objects stay, the log grows (tests/cli/s3_faults kills and restarts servers of its own ports).
# ctest starts the default one once per run through the `s3` fixture (CMakeLists.txt); tests
# read its address from SLUICE_S3_ENDPOINT (default http://127.0.0.1:19400).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
pom="$here/scripts/s3/pom.xml"
access_key=sluice-test
secret_key=sluice-test-secret
bucket=sluice
start_timeout_s=120
stop_timeout_s=30

usage() {
  echo "usage: $0 start|stop|restart|status [--port N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
command=$1
shift
port=19400
while [ $# -gt 0 ]; do
  case "$1" in
    --port)
      [ $# -ge 2 ] || usage
      port=$2
      shift 2
      ;;
    *) usage ;;
  esac
done
[[ "$port" =~ ^[0-9]+$ ]] || usage
dir="$here/build/s3/$port"
pid_file="$dir/server.pid"
log_file="$dir/server.log"

server_name=s3
pid_marker="$dir/s3proxy.conf"
source "$here/scripts/loopback_server.sh"

# The server's classpath, resolved from ~/.m2 once and cached until the pom changes.
classpath() { maven_classpath "$pom" "$here/build/s3/classpath.txt" "S3Proxy's jars"; }

write_config() {
  cat >"$dir/s3proxy.conf" <<CONF
s3proxy.endpoint=http://127.0.0.1:$port
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$access_key
s3proxy.credential=$secret_key
jclouds.provider=filesystem-nio2
jclouds.filesystem.basedir=$dir/data
CONF
  # One log line a request ("S3ProxyHandler -- request: ... GET@... http://..."), which a
  # benchmark can count; the rest at INFO (logback's default, DEBUG for everything, logs Jetty's
  # every step).
  cat >"$dir/logback.xml" <<CONF
<configuration>
  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} -- %msg%n</pattern></encoder>
  </appender>
  <logger name="org.gaul.s3proxy.S3ProxyHandler" level="DEBUG"/>
  <root level="INFO"><appender-ref ref="out"/></root>
</configuration>
CONF
}

# start [keep]: with "keep", on the storage (and log) of the previous run.
start() {
  local keep=${1:-} pid cp log_lines=0 start_s=$SECONDS
  pid="$(running_pid)"
  if [ -n "$pid" ]; then
    echo "s3: already running on 127.0.0.1:$port (pid $pid)"
    return 0
  fi
  if port_open; then
    echo "s3: 127.0.0.1:$port is taken by another process" >&2
    return 1
  fi
  cp="$(classpath)"
  if [ "$keep" = keep ] && [ -d "$dir/data/$bucket" ]; then
    log_lines=$(wc -l <"$log_file" 2>/dev/null || echo 0)
  else
    rm -rf "$dir"
    # A bucket of the filesystem backend is a directory of its base directory.
    mkdir -p "$dir/data/$bucket"
    : >"$log_file"
  fi
  write_config
  # -XX:TieredStopAtLevel=1 and the serial collector start the JVM faster and keep it small on
  # a machine shared with builds.
  local jvm=(java -Xms32m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData
    -Djava.awt.headless=true -Dlogback.configurationFile="$dir/logback.xml" -cp "$cp")
  # Its own session, stdio detached: ctest waits for the start step's output to close, and must
  # not kill the server with the step's process group.
  without_inherited_fds setsid "${jvm[@]}" org.gaul.s3proxy.Main --properties "$dir/s3proxy.conf" \
    </dev/null >>"$log_file" 2>&1 &
  echo $! >"$pid_file"
  pid=$!
  while ((SECONDS - start_s < start_timeout_s)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$log_file" >&2
      echo "s3: the server exited during startup (log: $log_file)" >&2
      rm -f "$pid_file"
      return 1
    fi
    if tail -n "+$((log_lines + 1))" "$log_file" | grep -q "Started .*Server@" && port_open; then
      echo "s3: started on 127.0.0.1:$port (pid $pid) in $((SECONDS - start_s)) s"
      return 0
    fi
    sleep 0.2
  done
  tail -n 30 "$log_file" >&2
  echo "s3: not ready within $start_timeout_s s (log: $log_file); stopping it" >&2
  stop
  return 1
}

case "$command" in
  start) start ;;
  stop) stop ;;
  restart)
    stop >/dev/null
    start keep
    ;;
  status) status ;;
  *) usage ;;
esac
