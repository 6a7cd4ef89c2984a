#!/usr/bin/env bash
# A Prometheus server for the metrics tests (#33): Debian's prometheus (scripts/setup.sh
# installs it), one server on 127.0.0.1 scraping the given targets every second, so that a test
# waits about a second for a scrape instead of the default fifteen.
#
#   scripts/prometheus.sh start|stop|status [--port N] [--target HOST:PORT ...]
#
# The server listens on 127.0.0.1:N (default 19090). Its scrape configuration (prometheus.yml),
# storage (data/), log (server.log) and pid file live in build/prometheus/<N>/. `start` is
# idempotent (a running server is left as it is, targets and all); a stopped one starts on
# fresh, empty storage scraping the --target endpoints (none: nothing), as the scrape job
# `sluice` with honor_labels, as deploy/prometheus/prometheus.yml does (the `job` label of a
# Sluice series names the Sluice job).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
start_timeout_s=60
stop_timeout_s=30

usage() {
  echo "usage: $0 start|stop|status [--port N] [--target HOST:PORT ...]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
command=$1
shift
port=19090
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --port)
      [ $# -ge 2 ] || usage
      port=$2
      shift 2
      ;;
    --target)
      [ $# -ge 2 ] || usage
      [[ "$2" =~ ^[A-Za-z0-9.-]+:[0-9]+$ ]] || {
        echo "prometheus: --target $2 is not HOST:PORT" >&2
        exit 2
      }
      targets+=("$2")
      shift 2
      ;;
    *) usage ;;
  esac
done
[[ "$port" =~ ^[0-9]+$ ]] || usage
dir="$here/build/prometheus/$port"
pid_file="$dir/server.pid"
log_file="$dir/server.log"
config="$dir/prometheus.yml"

server_name=prometheus
pid_marker="$config"
source "$here/scripts/loopback_server.sh"

write_config() {
  local target
  {
    cat <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
EOF
    if ((${#targets[@]} > 0)); then
      cat <<EOF
scrape_configs:
  - job_name: sluice
    honor_labels: true
    static_configs:
      - targets:
EOF
      for target in "${targets[@]}"; do
        echo "          - '$target'"
      done
    fi
  } >"$config"
}

# Whether the server says it is ready to serve queries.
ready() {
  curl -fsS --max-time 2 "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1
}

start() {
  local pid start_s=$SECONDS
  pid="$(running_pid)"
  if [ -n "$pid" ]; then
    echo "prometheus: already running on 127.0.0.1:$port (pid $pid)"
    return 0
  fi
  if port_open; then
    echo "prometheus: 127.0.0.1:$port is taken by another process" >&2
    return 1
  fi
  command -v prometheus >/dev/null || {
    echo "prometheus: the prometheus command is missing; run scripts/setup.sh (Debian's prometheus)" >&2
    return 1
  }
  rm -rf "$dir"
  mkdir -p "$dir/data"
  write_config
  # Its own session, stdio detached: ctest waits for the start step's output to close, and must
  # not kill the server with the step's process group.
  without_inherited_fds setsid prometheus --config.file="$config" \
    --storage.tsdb.path="$dir/data" --storage.tsdb.retention.time=1d \
    --web.listen-address="127.0.0.1:$port" </dev/null >"$log_file" 2>&1 &
  pid=$!
  echo "$pid" >"$pid_file"
  while ((SECONDS - start_s < start_timeout_s)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$log_file" >&2
      echo "prometheus: the server exited during startup (log: $log_file)" >&2
      rm -f "$pid_file"
      return 1
    fi
    if ready; then
      echo "prometheus: started on 127.0.0.1:$port (pid $pid) in $((SECONDS - start_s)) s," \
        "scraping ${targets[*]:-nothing}"
      return 0
    fi
    sleep 0.2
  done
  tail -n 30 "$log_file" >&2
  echo "prometheus: not ready within $start_timeout_s s (log: $log_file); stopping it" >&2
  stop
  return 1
}

case "$command" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
