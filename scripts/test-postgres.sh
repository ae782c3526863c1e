#!/usr/bin/env bash
# A throwaway PostgreSQL for the store tests: a private cluster in a temp folder, on a port of its own, on 127.0.0.1.
#
#   scripts/test-postgres.sh run CMD...   start it, run CMD with SWITCHBOARD_TEST_PG_URL set, stop it (also on failure)
#   scripts/test-postgres.sh start        start it (installs Debian's postgresql when initdb is missing and we are root);
#                                         prints `export SWITCHBOARD_TEST_PG_URL=...` for eval
#   scripts/test-postgres.sh env          prints that line again for the running cluster
#   scripts/test-postgres.sh stop         stops it and removes its folder
#
# The folder is $SWITCHBOARD_TEST_PG_DIR, by default one per checkout under ${TMPDIR:-/tmp}. As root, the cluster runs
# as an unprivileged user (initdb refuses root): $SWITCHBOARD_TEST_PG_USER, default nobody. The server checks
# passwords (scram-sha-256) so that a wrong password can be tested; it runs without fsync: it is for tests only.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KEY="$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
DIR="${SWITCHBOARD_TEST_PG_DIR:-${TMPDIR:-/tmp}/switchboard-test-pg-$KEY}"
RUN_AS="${SWITCHBOARD_TEST_PG_USER:-nobody}"
PG_USER=switchboard
PG_PASSWORD=switchboard-test
PG_DATABASE=switchboard_test

say() { echo "test-postgres: $*" >&2; }

# The folder holding initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql/<version>/bin.
find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    # Debian links initdb into /usr/local/bin or /usr/bin; its folder also holds psql and postgres.
    dirname "$(readlink -f "$(command -v initdb)")"
    return 0
  fi
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$found" ] && [ -x "$found/initdb" ] && [ -x "$found/pg_ctl" ]; then
    echo "$found"
    return 0
  fi
  return 1
}

install_postgres() {
  if [ "$(id -u)" -ne 0 ]; then
    say "initdb and pg_ctl are missing: install PostgreSQL (Debian: apt-get install postgresql) and run this again"
    exit 1
  fi
  say "initdb and pg_ctl are missing: installing Debian's postgresql"
  # No default cluster on 5432: this script makes its own.
  if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    mkdir -p /etc/postgresql-common
    echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf
  fi
  export DEBIAN_FRONTEND=noninteractive UCF_FORCE_CONFFOLD=1
  apt-get update -q >&2
  apt-get install -y -q --no-install-recommends postgresql >&2
}

# Runs a PostgreSQL program as the cluster's user (root cannot run initdb or postgres).
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd "$DIR" && runuser -u "$RUN_AS" -- "$@")
  else
    (cd "$DIR" && "$@")
  fi
}

free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

url() {
  echo "postgres://$PG_USER:$PG_PASSWORD@127.0.0.1:$(cat "$DIR/port")/$PG_DATABASE"
}

is_running() {
  [ -f "$DIR/bin" ] && [ -f "$DIR/data/postmaster.pid" ] && as_owner "$(cat "$DIR/bin")/pg_ctl" status -D "$DIR/data" >/dev/null 2>&1
}

start() {
  if is_running; then
    say "already running in $DIR"
    echo "export SWITCHBOARD_TEST_PG_URL=$(url)"
    return 0
  fi
  local bin
  if ! bin="$(find_bin)"; then
    install_postgres
    bin="$(find_bin)" || { say "no initdb after installing postgresql"; exit 1; }
  fi
  rm -rf "$DIR"
  mkdir -p "$DIR"
  echo "$bin" >"$DIR/bin"
  echo "${SWITCHBOARD_TEST_PG_PORT:-$(free_port)}" >"$DIR/port"
  echo "$PG_PASSWORD" >"$DIR/password"
  if [ "$(id -u)" -eq 0 ]; then chown -R "$RUN_AS" "$DIR"; fi
  chmod 700 "$DIR"
  say "initdb in $DIR/data ($("$bin/postgres" --version), as $(if [ "$(id -u)" -eq 0 ]; then echo "$RUN_AS"; else id -un; fi))"
  as_owner "$bin/initdb" -D "$DIR/data" -U "$PG_USER" --pwfile="$DIR/password" --auth-local=scram-sha-256 --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; exit 1; }
  local port
  port="$(cat "$DIR/port")"
  as_owner "$bin/pg_ctl" start -w -t 60 -D "$DIR/data" -l "$DIR/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null || { cat "$DIR/server.log" >&2; exit 1; }
  PGPASSWORD="$PG_PASSWORD" "$bin/psql" -h 127.0.0.1 -p "$port" -U "$PG_USER" -d postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE $PG_DATABASE" >&2
  say "PostgreSQL on 127.0.0.1:$port (stop it with: scripts/test-postgres.sh stop)"
  echo "export SWITCHBOARD_TEST_PG_URL=$(url)"
}

stop() {
  if [ ! -d "$DIR" ]; then
    say "nothing to stop ($DIR does not exist)"
    return 0
  fi
  if is_running; then
    as_owner "$(cat "$DIR/bin")/pg_ctl" stop -D "$DIR/data" -m fast -w >/dev/null || say "pg_ctl stop failed; removing the folder anyway"
  fi
  rm -rf "$DIR"
  say "stopped; removed $DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env)
    is_running || { say "not running: scripts/test-postgres.sh start"; exit 1; }
    echo "export SWITCHBOARD_TEST_PG_URL=$(url)"
    ;;
  run)
    shift
    [ "$#" -gt 0 ] || { say "usage: scripts/test-postgres.sh run CMD..."; exit 2; }
    trap stop EXIT
    line="$(start)"
    eval "$line"
    "$@"
    ;;
  *)
    echo "usage: scripts/test-postgres.sh start | env | stop | run CMD..." >&2
    exit 2
    ;;
esac
