#!/usr/bin/env bash
# The MariaDB server of the Debezium CDC tests: Debian's mariadb-server (scripts/setup.sh installs
# it), one server on 127.0.0.1 with the binary log in ROW format, as Debezium's MariaDB connector
# needs it.
#
#   scripts/mariadb.sh start|stop|restart|status [--port N]
#
# The server listens on 127.0.0.1:N (default 13306). Its data, socket, log (server.log) and pid
# file live in build/mariadb/<N>/. `start` is idempotent (a running server is left as it is); a
# stopped one starts on a fresh, empty data directory, so every test run sees only its own
# databases. `restart` stops the server and starts it again on the data it has (a source
# server's restart, for the tests that a sync job must survive one). It creates the user sluice / sluice with every privilege, from any host (the server
# listens on loopback only). ctest starts it once per run through the `mariadb` fixture
# (CMakeLists.txt).
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
port=13306
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
dir="$here/build/mariadb/$port"
pid_file="$dir/server.pid"
log_file="$dir/server.log"
socket="$dir/mariadb.sock"

server_name=mariadb
pid_marker="$dir/data"
source "$here/scripts/loopback_server.sh"

# Runs SQL as root through the socket (root authenticates by its Unix user there).
root_sql() {
  mariadb --no-defaults --socket="$socket" --user=root --batch --skip-column-names -e "$1"
}

start() {
  local pid start_s=$SECONDS
  pid="$(running_pid)"
  if [ -n "$pid" ]; then
    echo "mariadb: already running on 127.0.0.1:$port (pid $pid)"
    return 0
  fi
  if port_open; then
    echo "mariadb: 127.0.0.1:$port is taken by another process" >&2
    return 1
  fi
  for tool in mariadbd mariadb-install-db mariadb; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
      echo "mariadb: $tool is missing; run scripts/setup.sh (Debian's mariadb-server)" >&2
      return 1
    }
  done
  rm -rf "$dir"
  mkdir -p "$dir/data" "$dir/tmp"
  # --no-defaults everywhere: the machine's /etc/mysql configuration is not the tests'.
  mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$dir/data" \
    --auth-root-authentication-method=socket --skip-test-db >"$dir/install.log" 2>&1 || {
    cat "$dir/install.log" >&2
    echo "mariadb: mariadb-install-db failed" >&2
    return 1
  }
  launch "$start_s" fresh
}

# Starts the server on the data directory as it is and waits until it answers; on a `fresh`
# one, creates the user first.
launch() {
  local start_s=$1 fresh=$2 pid
  local server=/usr/sbin/mariadbd
  command -v mariadbd >/dev/null 2>&1 && server="$(command -v mariadbd)"
  # The binary log in ROW format with full row images is what Debezium reads; server-id names
  # this server in the replication protocol. Full row metadata puts the column names, the
  # unsigned flags, the charsets and the ENUM / SET members in every TABLE_MAP event, so that a
  # binlog reader (Sluice's, Debezium's) decodes rows without asking the schema. Small buffers:
  # a test server on a shared machine. Its own session, stdio detached: ctest waits for the
  # start step's output to close, and must not kill the server with the step's process group.
  without_inherited_fds setsid "$server" --no-defaults --user="$(id -un)" --datadir="$dir/data" --tmpdir="$dir/tmp" \
    --port="$port" --bind-address=127.0.0.1 --socket="$socket" --pid-file="$dir/mariadbd.pid" \
    --skip-name-resolve --log-error="$log_file" \
    --server-id=1 --log-bin="$dir/data/binlog" --binlog-format=ROW --binlog-row-image=FULL \
    --binlog-row-metadata=FULL \
    --expire-logs-days=1 \
    --innodb-buffer-pool-size=64M --innodb-log-file-size=48M --performance-schema=OFF \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci --default-time-zone=+00:00 \
    </dev/null >/dev/null 2>&1 &
  pid=$!
  echo "$pid" >"$pid_file"
  # Ready when the server answers a query through its socket and its TCP port is open.
  while ((SECONDS - start_s < start_timeout_s)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$log_file" >&2 || true
      echo "mariadb: the server exited during startup (log: $log_file)" >&2
      rm -f "$pid_file"
      return 1
    fi
    if root_sql "SELECT 1" >/dev/null 2>&1 && port_open; then
      if [ "$fresh" = fresh ]; then
        root_sql "CREATE USER 'sluice'@'%' IDENTIFIED BY 'sluice';
                  GRANT ALL PRIVILEGES ON *.* TO 'sluice'@'%' WITH GRANT OPTION;"
      fi
      echo "mariadb: started on 127.0.0.1:$port (pid $pid) in $((SECONDS - start_s)) s"
      return 0
    fi
    sleep 0.2
  done
  tail -n 30 "$log_file" >&2 || true
  echo "mariadb: not ready within $start_timeout_s s (log: $log_file); stopping it" >&2
  stop
  return 1
}

# Stops the server and starts it again on its data.
restart() {
  if [ ! -d "$dir/data" ]; then
    echo "mariadb: no data directory $dir/data to restart on" >&2
    return 1
  fi
  stop
  launch "$SECONDS" kept
}

case "$command" in
  start) start ;;
  restart) restart ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
