#!/usr/bin/env bash
# Runs the test suite (scripts/run-tests.mjs) on another pinned Node version (scripts/node-versions.tsv), in this checkout:
#
#   scripts/test-on-node.sh MAJOR [FILES OR FOLDERS...]     e.g. scripts/test-on-node.sh 24 src/store/sqlite
#
# It installs that Node (scripts/node-toolchain.ts, into a cache folder outside the repository), builds the native
# SQLite driver for it from source against its headers (a build of the same driver and Node is reused from the cache),
# runs the tests with that Node first on PATH (so every process a test spawns runs on it too), and puts back the
# driver build of the default `node` on the way out, failure or not. Run `npm ci` (or `npm install`) first.
# Exit code: the tests' (1 when the toolchain or the driver could not be set up).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "test-on-node: $*" >&2; }

major="${1:-}"
[[ "$major" =~ ^[0-9]+$ ]] || { say "usage: scripts/test-on-node.sh MAJOR [FILES OR FOLDERS...]"; exit 2; }
shift

driver_dir=node_modules/better-sqlite3
binary="$driver_dir/build/Release/better_sqlite3.node"
[ -f "$binary" ] || { say "no $binary: run npm ci first"; exit 1; }
driver_version="$(node -p "require('./$driver_dir/package.json').version")"

node_dir="$(node --import tsx scripts/node-toolchain.ts node "$major")"
node_version="$("$node_dir/bin/node" --version)"
cache="${SWITCHBOARD_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard-toolchains}/builds"
cached="$cache/better-sqlite3-$driver_version-node-$node_version-$(uname -s)-$(uname -m).node"

# The default node's build, put back on exit (a copy, so a killed run leaves at worst a build for the other Node,
# which `npm rebuild better-sqlite3` mends; the trap covers every ordinary way out).
saved="$(mktemp -d)"
cp "$binary" "$saved/default.node"
restore() {
  cp "$saved/default.node" "$binary"
  rm -rf "$saved"
}
trap restore EXIT

# Loads the driver with the Node on PATH and opens a database in memory.
driver_loads() {
  node -e "const D = require('./$driver_dir'); const db = new D(':memory:'); db.prepare('select sqlite_version() as v').get(); db.close();" 2>"$saved/load.err"
}

export PATH="$node_dir/bin:$PATH"
[ "$(node --version)" = "$node_version" ] || { say "node on PATH is $(node --version), expected $node_version"; exit 1; }

if [ -f "$cached" ] && cp "$cached" "$binary" && driver_loads; then
  say "better-sqlite3 $driver_version for node $node_version: the build in $cache"
else
  say "building better-sqlite3 $driver_version for node $node_version against $node_dir/include/node"
  started=$SECONDS
  if ! npm rebuild better-sqlite3 --nodedir="$node_dir" >"$saved/rebuild.log" 2>&1; then
    cat "$saved/rebuild.log" >&2
    say "npm rebuild better-sqlite3 failed for node $node_version"
    exit 1
  fi
  if ! driver_loads; then
    cat "$saved/rebuild.log" "$saved/load.err" >&2
    say "better-sqlite3 $driver_version, built for node $node_version, does not load"
    exit 1
  fi
  mkdir -p "$cache"
  cp "$binary" "$cached.partial" && mv "$cached.partial" "$cached"
  say "built in $((SECONDS - started)) s"
fi

status=0
node scripts/run-tests.mjs "$@" || status=$?
exit "$status"
