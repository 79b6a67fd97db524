#!/usr/bin/env bash
# Benchmark of osctl stress --workers K: the http profile against a loopback hello server, from one
# local process and from K = 1 and K = 2 load workers driven through the API server's exec (the
# test control plane with kwok: each worker is a local osctl process behind the same exec path as
# in a cluster), at the same total concurrency, in interleaved rounds; medians. Ratios are of one
# run. The test behind it is TestBenchWorkers (internal/cli/stress/worker/bench_test.go).
#
#   scripts/bench/workers.sh                                   # 3 rounds, 5 s each, c=64
#   BENCH_ROUNDS=5 BENCH_DURATION=10 BENCH_CONCURRENCY=128 scripts/bench/workers.sh
#
# Targets: K=2 at >= 0.90x the requests/s of the same total concurrency sent without coordination
# (two local processes side by side: on two cores, two processes of any load tool share them, so
# the ratio to one local process is printed too); the coordinator's CPU <= 0.10x one worker's.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export OSCTL_K8S_BIN=${OSCTL_K8S_BIN:-$(scripts/k8s-build.sh | tail -1)}
export OSCTL_BENCH_WORKERS=1
out=$(go test -count=1 -timeout 20m -run '^TestBenchWorkers$' -v ./internal/cli/stress/worker/ 2>&1) || { printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$out" | grep -E '^(BENCH|    bench_test.go|        )' | sed 's/^BENCH //'
printf '%s\n' "$out" | awk '
/^BENCH K=2/ { for (i = 1; i <= NF; i++) { if ($i == "local" && $(i-1) == "to") r = $(i+1); if ($i == "coordination") q = $(i+2); if ($i == "worker'"'"'s") c = $(i+1) } }
END {
  ok = 1
  if (q + 0 < 0.90) { print "FAIL: K=2 coordination ratio " q " < 0.90"; ok = 0 }
  if (c + 0 > 0.10) { print "FAIL: coordinator CPU ratio " c " > 0.10"; ok = 0 }
  if (ok) print "targets met: K=2 coordination ratio " q " >= 0.90 (" r " of one local process), coordinator CPU ratio " c " <= 0.10"
  exit !ok
}'
