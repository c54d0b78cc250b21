# The real Label Studio server for CI (sourced by .ci/run): built from ../shared/realls once per machine, into a
# cache outside the clone, rebuilt only when that directory's versions.lock changes; started on a free port with a
# fresh database and a throwaway token; stopped at the end. Every failure says why, and returns non-zero.
#
#   realls_start <sqlite|postgres>   builds if needed, starts; sets REALLS_URL and REALLS_KEY
#   realls_stop                      stops what realls_start started (and releases the machine-wide lock)
#
# Environment: DMQ_REALLS_SOURCE (default: ../shared/realls beside the clone, else /work/shared/realls),
# DMQ_REALLS_CACHE (default /var/cache/dmq-realls; the database is appended: /var/cache/dmq-realls-postgres).

REALLS_URL=""
REALLS_KEY=""
_realls_cache=""
_realls_lock_fd=""
_realls_src=""

_realls_say() { echo "real server ($1): $2"; }

_realls_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -E "$@"; else return 126; fi
}

# DMQ_REALLS_SOURCE when set (and nothing else), else ../shared/realls beside the clone, else /work/shared/realls.
_realls_source() {
  local clone_parent candidates
  clone_parent="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  if [ -n "${DMQ_REALLS_SOURCE:-}" ]; then candidates=("$DMQ_REALLS_SOURCE"); else candidates=("$clone_parent/shared/realls" /work/shared/realls); fi
  for dir in "${candidates[@]}"; do
    if [ -f "$dir/setup.sh" ] && [ -f "$dir/versions.lock" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

_realls_free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}

# Secrets stay out of the log: the token is replaced wherever a script echoes it.
_realls_tail() { tail -n "${2:-25}" "$1" 2>/dev/null | sed -e "s/${REALLS_KEY:-@@none@@}/***/g" -e 's/^/    /'; }

realls_start() {
  local db="$1" built stamp log port t0
  t0=$(date +%s)
  REALLS_URL=""
  REALLS_KEY=""
  if ! _realls_src="$(_realls_source)"; then
    _realls_say "$db" "cannot build it: no setup.sh and versions.lock in ${DMQ_REALLS_SOURCE:-../shared/realls beside the clone, nor in /work/shared/realls}"
    return 1
  fi
  if ! [ "$(id -u)" -eq 0 ] && ! command -v sudo >/dev/null 2>&1; then
    _realls_say "$db" "cannot build it: setup.sh needs root (debootstrap, chroot) and there is no sudo"
    return 1
  fi
  _realls_cache="${DMQ_REALLS_CACHE:-/var/cache/dmq-realls}-$db"
  mkdir -p "$(dirname "$_realls_cache")"
  # One CI run at a time per cache: a scratch dir serves one server, and a rebuild must not pull it from under another run.
  exec {_realls_lock_fd}>"$_realls_cache.lock"
  if ! flock -w 2400 "$_realls_lock_fd"; then
    _realls_say "$db" "cannot use $_realls_cache: another CI run held its lock for 40 minutes"
    exec {_realls_lock_fd}>&-
    _realls_lock_fd=""
    return 1
  fi
  stamp="$_realls_cache/dmq-source-versions.lock"
  log="$_realls_cache.setup.log"
  if [ -f "$stamp" ] && cmp -s "$_realls_src/versions.lock" "$stamp"; then
    built="cached in $_realls_cache (versions.lock unchanged)"
  else
    if [ -d "$_realls_cache" ]; then
      _realls_say "$db" "versions.lock changed (or the last build did not finish): rebuilding $_realls_cache"
      _realls_as_root bash "$_realls_src/stop.sh" "$_realls_cache" >/dev/null 2>&1
      _realls_as_root rm -rf "$_realls_cache"
    fi
    _realls_say "$db" "building from $_realls_src into $_realls_cache (3-5 minutes; log: $log)"
    if ! REALLS_DB="$db" _realls_as_root bash "$_realls_src/setup.sh" "$_realls_cache" >"$log" 2>&1; then
      _realls_say "$db" "setup.sh failed; its last lines:"
      _realls_tail "$log" 30
      realls_stop
      return 1
    fi
    cp "$_realls_src/versions.lock" "$stamp"
    built="built in $(($(date +%s) - t0)) s"
  fi
  port="$(_realls_free_port)" || {
    _realls_say "$db" "no free port"
    realls_stop
    return 1
  }
  REALLS_KEY="$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')"
  log="$_realls_cache.start.log"
  if ! _realls_as_root bash "$_realls_src/start.sh" "$_realls_cache" "$port" "$REALLS_KEY" --fresh >"$log" 2>&1; then
    _realls_say "$db" "start.sh failed on port $port; its last lines, then the server log's:"
    _realls_tail "$log" 15
    _realls_tail "$_realls_cache/server.log" 25
    realls_stop
    return 1
  fi
  REALLS_URL="http://127.0.0.1:$port"
  _realls_say "$db" "$REALLS_URL up ($built; ready after $(($(date +%s) - t0)) s)"
}

realls_stop() {
  if [ -n "$_realls_cache" ] && [ -f "$_realls_cache/server.pid" ]; then
    _realls_as_root bash "$_realls_src/stop.sh" "$_realls_cache" >/dev/null 2>&1 || true
  elif [ -n "$_realls_cache" ] && [ -f "$_realls_cache/postgres.pid" ]; then
    _realls_as_root bash "$_realls_src/stop.sh" "$_realls_cache" >/dev/null 2>&1 || true
  fi
  if [ -n "$_realls_lock_fd" ]; then
    exec {_realls_lock_fd}>&-
    _realls_lock_fd=""
  fi
  REALLS_URL=""
  REALLS_KEY=""
}
