#!/bin/bash
# make demo: the whole story on the local sandbox, in a few minutes on 2 cores.
#  1. preflight: the chart as it is today fails, the migrated chart passes; a caching NFS mount
#     fails and a noac mount passes.
#  2. three sandbox replicas without locking: osctl stress finds the races.
#  3. the same with Redis locks (--hold): osctl locks inspect shows who holds what.
#  4. a clean, conclusive run with Redis locks.
# Leaves no process behind and removes the sandboxes' state directories; reports go to reports/demo/,
# and it ends by naming the two HTML reports.
# DEMO_REQUESTS and DEMO_CONCURRENCY size the stress runs (default 10000 / 2000).
set -uo pipefail
cd "$(dirname "$0")/.."
OSCTL=${OSCTL:-bin/osctl}
OUT=reports/demo
REQ=${DEMO_REQUESTS:-10000}
CONC=${DEMO_CONCURRENCY:-2000}
mkdir -p "$OUT"
rm -f "$OUT"/*
bold() { if [ -t 1 ]; then printf '\n\033[1m== %s\033[0m\n' "$*"; else printf '\n== %s\n' "$*"; fi; }
run() { printf '$ %s\n' "$*"; "$@"; }
expect() { # expect CODE CMD...: run, and stop the demo if the exit code is not the one the story needs
  local want=$1; shift
  run "$@"; local rc=$?
  if [ "$rc" != "$want" ]; then echo "demo: expected exit $want, got $rc from: $*" >&2; exit 1; fi
  echo "(exit $rc, as expected)"
}

if ! command -v redis-server >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "demo: installing redis-server (apt-get install -y redis-server)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; } ||
      { echo "demo: could not install redis-server; run: sudo apt-get install -y redis-server" >&2; exit 2; }
  else
    echo "demo: redis-server is not installed; run: sudo apt-get install -y redis-server" >&2
    exit 2
  fi
fi

UP_PID=
stop_sandbox() {
  if [ -n "$UP_PID" ] && kill -0 "$UP_PID" 2>/dev/null; then
    kill -INT "$UP_PID"
    for _ in $(seq 100); do kill -0 "$UP_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$UP_PID" 2>/dev/null
  fi
  wait "$UP_PID" 2>/dev/null
  UP_PID=
}
STATE_DIRS=()
trap 'stop_sandbox; rm -rf "${STATE_DIRS[@]}"' EXIT
trap 'echo "demo: interrupted"; exit 130' INT TERM

# start_sandbox NAME ARGS...: starts `osctl sandbox up` in the background, waits for its JSON line,
# and sets TARGETS (comma-separated replica URLs), STATE_DIR and REDIS.
start_sandbox() {
  local name=$1; shift
  local dir; dir=$(mktemp -d "${TMPDIR:-/tmp}/osctl-demo-$name.XXXXXX")
  printf '$ %s sandbox up %s --dir %s &\n' "$OSCTL" "$*" "$dir"
  "$OSCTL" sandbox up "$@" --dir "$dir" >"$OUT/sandbox-$name.json" 2>"$OUT/sandbox-$name.log" &
  UP_PID=$!
  for _ in $(seq 300); do
    [ -s "$OUT/sandbox-$name.json" ] && break
    kill -0 "$UP_PID" 2>/dev/null || { cat "$OUT/sandbox-$name.log" >&2; exit 2; }
    sleep 0.1
  done
  local line; line=$(head -1 "$OUT/sandbox-$name.json")
  TARGETS=$(echo "$line" | sed -n 's/.*"replicas":\[\([^]]*\)\].*/\1/p' | tr -d '"')
  REDIS=$(echo "$line" | sed -n 's/.*"redis":\["\([^"]*\)".*/\1/p')
  STATE_DIR=$dir
  STATE_DIRS+=("$dir")
  sed -n '/replica(s) up/,$p' "$OUT/sandbox-$name.log" | head -6
}

bold "1. Preflight: is the chart ready for more than one web replica?"
expect 1 "$OSCTL" preflight manifests -f examples/chart-today/
expect 0 "$OSCTL" preflight manifests -f examples/chart-migrated/
expect 1 "$OSCTL" preflight nfs --mountinfo examples/mountinfo/actimeo60.txt
expect 0 "$OSCTL" preflight nfs --mountinfo examples/mountinfo/noac.txt

bold "2. Three web replicas writing one shared directory, no locking (the app as it is)"
start_sandbox none --replicas 3 --locking none
expect 1 "$OSCTL" stress --profile openstudio --target "$TARGETS" --state-dir "$STATE_DIR" \
  --requests 2000 --concurrency 500 --analyses 20 \
  --report "$OUT/none-report.json" --html "$OUT/none.html" --history "$OUT/none-history.jsonl"
stop_sandbox

bold "3. The same with Redis locks around each critical section; every section held 2 s"
start_sandbox hold --replicas 3 --locking redlock --hold 2s
"$OSCTL" stress --profile openstudio --target "$TARGETS" --state-dir "$STATE_DIR" \
  --requests 30 --concurrency 30 --analyses 6 --mix upload=1 --settle-timeout 30s \
  -o json >"$OUT/hold-report.json" 2>/dev/null &
STRESS_PID=$!
sleep 2
run "$OSCTL" locks inspect --redis "$REDIS"
echo "(each lock is held by one replica's process: osctl:v1:<host>:<pid>:<random>, TTL renewed while it works)"
wait "$STRESS_PID"
stop_sandbox

bold "4. A clean, conclusive run with Redis locks: $REQ requests, $CONC in flight"
start_sandbox redlock --replicas 3 --locking redlock
expect 0 "$OSCTL" stress --profile openstudio --target "$TARGETS" --state-dir "$STATE_DIR" \
  --requests "$REQ" --concurrency "$CONC" --analyses 100 \
  --report "$OUT/redlock-report.json" --html "$OUT/redlock.html" --junit "$OUT/redlock-junit.xml" \
  --history "$OUT/redlock-history.jsonl"
stop_sandbox

bold "Reports"
ls -1 "$OUT"/*.json "$OUT"/*.xml 2>/dev/null
echo "HTML reports (one file each, open them from disk):"
echo "  $OUT/none.html     the races of step 2, each with its race timeline"
echo "  $OUT/redlock.html  the clean, conclusive run of step 4"
