#!/bin/bash
# pkg/lock vs bare redsync: one uncontended acquire+release on the same three real redis-server
# masters (started by the benchmark itself through internal/testenv on free loopback ports).
# One `go test -bench` run interleaves redsync, pkg/lock without fencing, and pkg/lock with
# fencing LOCK_BENCH_ROUNDS times; the medians give the ratio pkg/lock/redsync (target <= 1.10) and the extra
# cost of fencing tokens, reported separately.
# Env: LOCK_BENCH_ROUNDS (default 8), BENCHTIME (default 2000x), LOCK_BENCH_MAX_RATIO (default 1.10).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${LOCK_BENCH_ROUNDS:-8}
benchtime=${BENCHTIME:-2000x}
max=${LOCK_BENCH_MAX_RATIO:-1.10}
command -v redis-server >/dev/null || { echo "redis-server is not installed: apt-get install -y redis-server" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
LOCK_BENCH_ROUNDS=$rounds go test -run '^$' -bench '^BenchmarkAcquireRelease$' -benchtime "$benchtime" -count 1 ./pkg/lock/ | tee "$out" | grep -E '^(Benchmark|ok|FAIL)' >&2
awk -v max="$max" '
  /^BenchmarkAcquireRelease\// {
    split($1, p, "/"); name = p[2]; sub(/-[0-9]+$/, "", name); sub(/#[0-9]+$/, "", name)
    for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") { k = ++n[name]; v[name, k] = $i }
  }
  function median(arr, k,    i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (arr[j] + 0 < arr[i] + 0) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
    return (k % 2) ? arr[(k + 1) / 2] : (arr[k / 2] + arr[k / 2 + 1]) / 2
  }
  END {
    k = n["redsync"]
    if (!k || n["lock"] != k || n["lock-fencing"] != k) { print "lock bench: missing results" > "/dev/stderr"; exit 2 }
    # Each round ran the three back to back: compare within a round, then take the median.
    for (i = 1; i <= k; i++) {
      r[i] = v["redsync", i]; l[i] = v["lock", i]; f[i] = v["lock-fencing", i]
      rl[i] = l[i] / r[i]; rf[i] = f[i] / r[i]; fx[i] = f[i] - l[i]; fp[i] = 100 * (f[i] - l[i]) / l[i]
    }
    mr = median(r, k); ml = median(l, k); mf = median(f, k)
    ratio = median(rl, k); fratio = median(rf, k); extra = median(fx, k); extrap = median(fp, k)
    printf "acquire+release, 3 masters, %d interleaved rounds (medians):\n", k
    printf "  redsync              %9.1f us/op\n", mr / 1000
    printf "  pkg/lock (no fence)  %9.1f us/op   ratio pkg/lock/redsync = %.3f (target <= %s)\n", ml / 1000, ratio, max
    printf "  pkg/lock (fencing)   %9.1f us/op   ratio to redsync = %.3f\n", mf / 1000, fratio
    printf "  fencing extra cost   %9.1f us/op   (+%.0f%% over pkg/lock without fencing)\n", extra / 1000, extrap
    if (ratio > max) { printf "pkg/lock overhead above target: %.3f > %s\n", ratio, max; exit 1 }
  }' "$out"
