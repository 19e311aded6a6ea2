#!/usr/bin/env bash
# The tutorial's first evening (docs/tutorial.md), as a newcomer runs it: `npm start` (embedded PostgreSQL, its
# data in a throwaway DATA_DIR, on free ports), wait for GET /health, run
# examples/first-evening.mjs against it, check the read models against a rebuild
# (npm run rebuild-read-models -- --check), then stop the service with SIGTERM and wait for it.
# Fails when the service does not come up, the example fails, or the stop is not clean.
#   bash .ci/example-run.sh            (after `npm install`; `npm start` builds if a source changed)
set -euo pipefail
cd "$(dirname "$0")/.."

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

work=$(mktemp -d)
export DATA_DIR="$work/data"
export PORT="${PORT:-$(free_port)}"
export EMBEDDED_PG_PORT="${EMBEDDED_PG_PORT:-$(free_port)}"
export HOST=127.0.0.1
export LOG_LEVEL="${LOG_LEVEL:-warn}"
export OUT_DIR="$work/out"
export BASE_URL="http://127.0.0.1:$PORT"
log="$work/server.log"
unset ADMIN_TOKEN DATABASE_URL MIGRATION_DATABASE_URL # the embedded default, as on a newcomer's machine

server=
stop_server() { # SIGTERM to `npm start` (npm passes it on to the app), then wait for both to exit
  [ -n "$server" ] || return 0
  kill -TERM "$server" 2>/dev/null || true
  for _ in $(seq 1 60); do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$server" 2>/dev/null; then
    echo "the service did not stop within 30 s of SIGTERM" >&2
    kill -KILL "$server" 2>/dev/null || true
    server=
    return 1
  fi
  wait "$server" 2>/dev/null || true
  server=
}
finish() {
  local rc=$?
  stop_server || rc=1
  if [ "$rc" -ne 0 ]; then
    echo "---- service log ($log)" >&2
    tail -n 60 "$log" >&2 || true
  fi
  rm -rf "$work"
  exit "$rc"
}
trap finish EXIT

echo "npm start on $BASE_URL (DATA_DIR $DATA_DIR, embedded PostgreSQL on $EMBEDDED_PG_PORT)"
npm start >"$log" 2>&1 </dev/null &
server=$!

up=
for _ in $(seq 1 240); do
  if ! kill -0 "$server" 2>/dev/null; then
    echo "npm start exited before answering GET /health" >&2
    exit 1
  fi
  if node -e 'fetch(process.argv[1]).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))' "$BASE_URL/health"; then
    up=1
    break
  fi
  sleep 0.5
done
[ -n "$up" ] || {
  echo "GET /health did not answer 200 within 120 s" >&2
  exit 1
}

node examples/first-evening.mjs
# After a whole evening, the read models the commands kept equal a rebuild from the history.
node dist/src/player-stats/rebuild-cli.js --check

stop_server
# A clean stop leaves no PostgreSQL running in the data folder.
if [ -f "$DATA_DIR/pg/postmaster.pid" ]; then
  echo "the embedded PostgreSQL was left running ($DATA_DIR/pg/postmaster.pid)" >&2
  exit 1
fi
echo "the first evening ran, and the service stopped cleanly"
