#!/usr/bin/env bash
# The PostgreSQL server of the CDC tests: Debian's postgresql-15 (scripts/setup.sh installs it),
# one server on 127.0.0.1 with wal_level=logical, as logical replication (pgoutput) needs it.
#
#   scripts/postgres.sh start|stop|restart|status [--port N]
#
# The server listens on 127.0.0.1:N (default 15432). Its data, socket, log (server.log) and pid
# file live in build/postgres/<N>/. `start` is idempotent (a running server is left as it is); a
# stopped one starts on a fresh, empty data directory, so every test run sees only its own
# databases; `restart` stops the server and starts it again on its data. It creates the role
# sluice / sluice (LOGIN, REPLICATION, SUPERUSER; loopback only, trust authentication) and its
# database sluice. PostgreSQL refuses to run as root: as root, the server runs as Debian's
# postgres user.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
start_timeout_s=120
stop_timeout_s=60

usage() {
  echo "usage: $0 start|stop|restart|status [--port N]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
command=$1
shift
port=15432
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
dir="$here/build/postgres/$port"
pid_file="$dir/server.pid"
log_file="$dir/server.log"
bin=/usr/lib/postgresql/15/bin

# Where the data really is: build/postgres/<port> may link to a folder under /tmp (start).
real_dir="$dir"
[ -L "$dir" ] && real_dir="$(readlink "$dir")"

server_name=postgres
pid_marker="$real_dir/data"
# SIGINT is PostgreSQL's fast shutdown: SIGTERM (smart) would wait for every client to leave,
# replication connections included.
stop_signal=INT
source "$here/scripts/loopback_server.sh"

# Runs a command as the server's user.
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

psql_admin() {
  as_server_user "$bin/psql" --no-psqlrc -X -q -h "$real_dir" -p "$port" -U postgres -d postgres \
    -v ON_ERROR_STOP=1 -c "$1"
}

# Starts the server on its data directory and waits until it answers; on a `fresh` one, creates
# the role and database first.
launch() {
  local start_s=$1 fresh=$2 pid
  # Its own session, stdio detached: ctest waits for the start step's output to close, and must
  # not kill the server with the step's process group. Small buffers: a test server on a shared
  # machine.
  without_inherited_fds as_server_user setsid "$bin/postgres" -D "$real_dir/data" -p "$port" -k "$real_dir" \
    -c listen_addresses=127.0.0.1 -c wal_level=logical -c max_replication_slots=20 \
    -c max_wal_senders=20 -c shared_buffers=32MB -c logging_collector=off -c TimeZone=UTC \
    </dev/null >>"$log_file" 2>&1 &
  pid=$!
  echo "$pid" >"$pid_file"
  while ((SECONDS - start_s < start_timeout_s)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$log_file" >&2 || true
      echo "postgres: the server exited during startup (log: $log_file)" >&2
      rm -f "$pid_file"
      return 1
    fi
    if as_server_user "$bin/pg_isready" -q -h "$real_dir" -p "$port" && port_open; then
      # The postmaster's own pid (the launcher above may have forked it).
      pid="$(head -n 1 "$real_dir/data/postmaster.pid")"
      echo "$pid" >"$pid_file"
      if [ "$fresh" = fresh ]; then
        psql_admin "CREATE ROLE sluice LOGIN REPLICATION SUPERUSER PASSWORD 'sluice'"
        psql_admin "CREATE DATABASE sluice OWNER sluice"
      fi
      echo "postgres: started on 127.0.0.1:$port (pid $pid) in $((SECONDS - start_s)) s"
      return 0
    fi
    sleep 0.2
  done
  tail -n 30 "$log_file" >&2 || true
  echo "postgres: not ready within $start_timeout_s s (log: $log_file); stopping it" >&2
  stop
  return 1
}

start() {
  local pid start_s=$SECONDS
  pid="$(running_pid)"
  if [ -n "$pid" ]; then
    echo "postgres: already running on 127.0.0.1:$port (pid $pid)"
    return 0
  fi
  if port_open; then
    echo "postgres: 127.0.0.1:$port is taken by another process" >&2
    return 1
  fi
  for tool in initdb postgres pg_isready psql; do
    [ -x "$bin/$tool" ] || {
      echo "postgres: $bin/$tool is missing; run scripts/setup.sh (Debian's postgresql-15)" >&2
      return 1
    }
  done
  if [ -L "$dir" ]; then rm -rf "$(readlink "$dir")"; fi
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$dir"
    # The postgres user may not reach into the checkout (a home directory of mode 700): the
    # data then lives in a folder of its own under /tmp, which build/postgres/<port> links to.
    if ! runuser -u postgres -- test -w "$dir"; then
      rm -rf "$dir"
      local data
      data="$(mktemp -d /tmp/sluice-postgres-"$port".XXXXXX)"
      chown postgres "$data"
      ln -s "$data" "$dir"
      real_dir="$data"
      pid_marker="$real_dir/data"
    fi
  fi
  as_server_user "$bin/initdb" -D "$real_dir/data" -U postgres --auth=trust --no-sync \
    >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    echo "postgres: initdb failed" >&2
    return 1
  }
  launch "$start_s" fresh
}

# Stops the server and starts it again on its data.
restart() {
  if [ ! -d "$real_dir/data" ]; then
    echo "postgres: no data directory $real_dir/data to restart on" >&2
    return 1
  fi
  stop
  launch "$SECONDS" kept
}

case "$command" in
  start) start ;;
  stop) stop ;;
  restart) restart ;;
  status) status ;;
  *) usage ;;
esac
