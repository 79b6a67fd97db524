#!/usr/bin/env bash
# Side-by-side benchmark of `osctl stress --profile http` against wrk, hey, vegeta and bombardier,
# all hitting one loopback server of this script's own that counts requests and new connections
# server-side (throughput is what the server saw, not what a tool claims). Rounds interleave the
# tools so that drift of a noisy machine hits every tool alike; medians are reported. Then the
# detector's benchmark: judging the state of 1k and 10k analyses.
#
#   scripts/bench/stress.sh                 # 3 rounds, 5 s at c=200, 10 s at c=10000
#   ROUNDS=5 DUR_HIGH=15 scripts/bench/stress.sh
#   OSCTL=/path/to/osctl scripts/bench/stress.sh   # measure another build
#
# Targets: osctl >= 1.0x bombardier and >= 0.8x wrk in requests/s at c=10000; osctl peak RSS
# <= 250 MB at c=10000; new connections <= 1.05x the concurrency; judging 10k analyses <= 2 s.
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DUR_LOW=${DUR_LOW:-5}
DUR_HIGH=${DUR_HIGH:-10}
LEVELS=${LEVELS:-"200 10000"}
TOOLS=${TOOLS:-"osctl wrk hey vegeta bombardier"}
OSCTL_CACHE=${OSCTL_CACHE:-/var/cache/osctl}
TOOLS_DIR=$OSCTL_CACHE/tools
HEY_VERSION=v0.1.4
VEGETA_VERSION=v12.12.0
BOMBARDIER_VERSION=v1.2.6

# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
bench_init stress

# --- anchors -------------------------------------------------------------------------------
install_tool() { # name module version
	local bin=$TOOLS_DIR/$1-$3
	if [[ ! -x $bin ]]; then
		say "installing $1 $3 into $TOOLS_DIR"
		mkdir -p "$TOOLS_DIR/gobin-$1"
		GOBIN=$TOOLS_DIR/gobin-$1 go install "$2@$3"
		mv "$TOOLS_DIR/gobin-$1/$1" "$bin"
	fi
	printf '%s' "$bin"
}
command -v wrk >/dev/null || { say "wrk is missing: apt-get install wrk"; exit 2; }
HEY=$(install_tool hey github.com/rakyll/hey $HEY_VERSION)
VEGETA=$(install_tool vegeta github.com/tsenart/vegeta/v12 $VEGETA_VERSION)
BOMBARDIER=$(install_tool bombardier github.com/codesenberg/bombardier $BOMBARDIER_VERSION)
bench_osctl

# --- the counting server ---------------------------------------------------------------------
ulimit -n "$(ulimit -Hn)"
bench_server
say "server $url (pid $server_pid), open files limit $(ulimit -n)"

stats() { curl -s "http://$addr/__stats"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])['$2'])" "$1"; }

run_tool() { # tool concurrency seconds
	local tool=$1 c=$2 d=$3
	case $tool in
	osctl) "$OSCTL" stress --profile http --target "$url" --requests 0 --concurrency "$c" --duration "${d}s" --max-error-rate 0 -o json ;;
	wrk) wrk -t2 -c "$c" -d "${d}s" "$url" ;;
	hey) "$HEY" -z "${d}s" -c "$c" "$url" ;;
	vegeta) echo "GET $url" | "$VEGETA" attack -duration="${d}s" -rate=0 -max-workers="$c" -workers="$c" -connections="$c" -max-connections="$c" >/dev/null ;;
	bombardier) "$BOMBARDIER" -c "$c" -d "${d}s" -p r "$url" ;;
	esac
}

results=$work/results.tsv
: >"$results"
for c in $LEVELS; do
	d=$DUR_LOW
	[[ $c -gt 1000 ]] && d=$DUR_HIGH
	for round in $(seq "$ROUNDS"); do
		for tool in $TOOLS; do
			before=$(stats)
			/usr/bin/time -f '%M' -o "$work/rss" bash -c "$(declare -f run_tool); OSCTL='$OSCTL' HEY='$HEY' VEGETA='$VEGETA' BOMBARDIER='$BOMBARDIER' url='$url' run_tool $tool $c $d" >"$work/out.$tool" 2>&1 || true
			sleep 1 # let the last responses land before counting
			after=$(stats)
			reqs=$(($(field "$after" requests) - $(field "$before" requests)))
			conns=$(($(field "$after" conns) - $(field "$before" conns)))
			rss=$(tail -1 "$work/rss")
			rps=$(python3 -c "print(round($reqs/$d))")
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$round" "$tool" "$rps" "$conns" "$rss" >>"$results"
			say "c=$c round $round $tool: $rps req/s (server-counted), $conns new connections, peak RSS $((rss / 1024)) MB"
			sleep 2 # let TIME_WAIT and the server settle between tools
		done
	done
done

http_rc=0
python3 - "$results" <<'EOF' || http_rc=$?
import sys, statistics, collections
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
by = collections.defaultdict(lambda: collections.defaultdict(list))
for c, rnd, tool, rps, conns, rss in rows:
    by[int(c)][tool].append((int(rps), int(conns), int(rss)))
print("\n## HTTP side by side (medians of %d interleaved rounds, server-counted)\n" % max(len(v) for t in by.values() for v in t.values()))
print("| concurrency | tool | requests/s | new connections | peak RSS MB | osctl ratio |")
print("|---|---|---|---|---|---|")
ok = True
for c in sorted(by):
    med = {t: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), statistics.median(x[2] for x in v) / 1024) for t, v in by[c].items()}
    o = med.get("osctl")
    for t, (rps, conns, rss) in sorted(med.items(), key=lambda kv: -kv[1][0]):
        ratio = "" if not o or t == "osctl" or rps == 0 else "%.2fx" % (o[0] / rps)
        print("| %d | %s | %.0f | %.0f | %.0f | %s |" % (c, t, rps, conns, rss, ratio))
    if o and c >= 10000:
        checks = [
            ("osctl >= 1.0x bombardier", "bombardier" not in med or o[0] >= 1.0 * med["bombardier"][0]),
            ("osctl >= 0.8x wrk", "wrk" not in med or o[0] >= 0.8 * med["wrk"][0]),
            ("osctl peak RSS <= 250 MB", o[2] <= 250),
            ("osctl new connections <= 1.05x concurrency", o[1] <= 1.05 * c),
        ]
        print()
        for name, good in checks:
            print("- %s: %s" % (name, "PASS" if good else "FAIL"))
            ok = ok and good
print()
sys.exit(0 if ok else 1)
EOF

echo
echo "## Judging synthetic states (go test -bench Judge ./pkg/stress/detect)"
echo
(cd "$root" && go test -run '^$' -bench 'BenchmarkJudge' -benchtime 5x ./pkg/stress/detect) | tee "$work/judge.txt" | grep Benchmark
judge_rc=0
python3 - "$work/judge.txt" <<'EOF' || judge_rc=$?
import re, sys
t = {}
for l in open(sys.argv[1]):
    m = re.search(r"analyses=(\d+)\S*\s+\d+\s+(\d+) ns/op", l)
    if m:
        t[int(m.group(1))] = int(m.group(2)) / 1e9
if 1000 in t and 10000 in t:
    growth = t[10000] / t[1000]
    print("\n- judging 10k analyses: %.3f s (<= 2 s: %s); 1k -> 10k grew %.1fx for 10x the analyses (linear: %s)"
          % (t[10000], "PASS" if t[10000] <= 2 else "FAIL", growth, "PASS" if growth <= 20 else "FAIL"))
    sys.exit(0 if t[10000] <= 2 and growth <= 20 else 1)
EOF
exit $((http_rc | judge_rc))
