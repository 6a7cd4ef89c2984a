# Shared by the scripts that run a test server on loopback (kafka.sh, mariadb.sh, s3.sh, ...):
# finding the server's own process, checking its port, reporting its status, stopping it, and a
# Java server's classpath from the local Maven cache. Sourced; the
# caller sets
#   server_name  the name in messages ("kafka")
#   port         the port the server listens on
#   pid_file     where its pid is
#   pid_marker   text that only this server's command line holds (its config or data path),
#                so that a recycled pid is never taken for it
#   stop_timeout_s  how long a SIGTERM may take before SIGKILL
#   stop_signal  (optional) the signal that asks the server to stop, TERM unless set

# Runs a command with the descriptors this shell inherited beyond stdio closed (call it in the
# background: `without_inherited_fds server ... &`): a server started by a command that holds a
# lock (`flock LOCK scripts/x.sh start`) would otherwise hold the lock for as long as it runs.
without_inherited_fds() {
  local fd
  for fd in $(ls "/proc/$BASHPID/fd"); do
    if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
  # A program replaces the shell, so that `$!` is the server's pid; a function runs in it.
  if declare -F "$1" >/dev/null; then
    "$@"
  else
    exec "$@"
  fi
}

# The pid of the running server, or nothing.
running_pid() {
  local pid
  [ -f "$pid_file" ] || return 0
  pid="$(cat "$pid_file")"
  if [ -n "$pid" ] && { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF "$pid_marker"; then
    echo "$pid"
  fi
}

# Whether something accepts connections on the port.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

# Running (its process alive and its port open): exit status 0; else 3.
status() {
  local pid
  pid="$(running_pid)"
  if [ -n "$pid" ] && port_open; then
    echo "$server_name: running on 127.0.0.1:$port (pid $pid)"
    return 0
  fi
  echo "$server_name: not running on 127.0.0.1:$port"
  return 3
}

# The stop signal (SIGTERM), a bounded wait, then SIGKILL.
stop() {
  local pid start_s=$SECONDS
  pid="$(running_pid)"
  if [ -z "$pid" ]; then
    rm -f "$pid_file"
    echo "$server_name: not running on 127.0.0.1:$port"
    return 0
  fi
  kill -"${stop_signal:-TERM}" "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && ((SECONDS - start_s < stop_timeout_s)); do
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$server_name: pid $pid did not stop within $stop_timeout_s s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pid_file"
  echo "$server_name: stopped (pid $pid) in $((SECONDS - start_s)) s"
}

# The classpath of the Maven project `pom` (a Java server's jars), resolved from ~/.m2 once and
# cached in `cache` until the pom changes; fetched online (naming `what`) only when the local
# cache lacks them (scripts/setup.sh fetches them).
maven_classpath() {
  local pom=$1 cache=$2 what=$3
  if [ ! -s "$cache" ] || [ "$pom" -nt "$cache" ]; then
    mkdir -p "$(dirname "$cache")"
    if ! mvn -B -q -o -f "$pom" dependency:build-classpath -Dmdep.outputFile="$cache.tmp" >/dev/null 2>&1; then
      echo "$server_name: $what are not in ~/.m2; fetching them (scripts/setup.sh does this)" >&2
      mvn -B -q -f "$pom" dependency:build-classpath -Dmdep.outputFile="$cache.tmp" >/dev/null
    fi
    mv "$cache.tmp" "$cache"
  fi
  cat "$cache"
}
