#!/usr/bin/env bash
# Memory of `osctl stress --profile http --history` as the run grows (issue 24): peak RSS of a run
# of SMALL and of LARGE requests at concurrency 100 against a loopback server of this script's
# own, of a run of LARGE without --history, and of `osctl stress judge` of the LARGE run's history
# (and how long it took), side by side with the ratios.
#
#   scripts/bench/stress-memory.sh                          # 100k and 1M requests
#   SMALL=10000 LARGE=100000 scripts/bench/stress-memory.sh
#   OSCTL=/path/to/osctl scripts/bench/stress-memory.sh     # measure another build
#
# Targets: with --history, peak RSS at LARGE <= 1.5x that at SMALL; judging the LARGE history
# under 500 MB and under 30 s.
set -euo pipefail

SMALL=${SMALL:-100000}
LARGE=${LARGE:-1000000}
CONC=${CONC:-100}
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
bench_init mem
bench_osctl
bench_server
say "server $url (pid $server_pid)"

# measure NAME CMD...: runs CMD under /usr/bin/time, keeps its peak RSS (MB) and wall time (s).
declare -A rss secs
measure() {
	local name=$1
	shift
	/usr/bin/time -f '%M %e' -o "$work/time.$name" "$@" >"$work/out.$name" 2>&1 || true
	read -r kb s < <(tail -1 "$work/time.$name")
	rss[$name]=$((kb / 1024))
	secs[$name]=$s
	say "$name: ${rss[$name]} MB, $s s"
}
stress=("$OSCTL" stress --profile http --target "$url" --concurrency "$CONC" -o json --requests)
measure nohist "${stress[@]}" "$LARGE"
measure small "${stress[@]}" "$SMALL" --history "$work/small.jsonl"
measure large "${stress[@]}" "$LARGE" --history "$work/large.jsonl"
measure judge "$OSCTL" stress judge --history "$work/large.jsonl" -o json
records=$(($(wc -l <"$work/large.jsonl") - 2))
for n in nohist small large judge; do
	grep -q '"verdict"' "$work/out.$n" || { say "$n gave no report:"; cat "$work/out.$n" >&2; exit 1; }
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf '%-44s %10s %8s\n' "run (http, concurrency $CONC, loopback)" "peak RSS" "seconds"
printf '%-44s %7s MB %8s\n' "$LARGE requests, no --history" "${rss[nohist]}" "${secs[nohist]}"
printf '%-44s %7s MB %8s\n' "$SMALL requests, --history" "${rss[small]}" "${secs[small]}"
printf '%-44s %7s MB %8s\n' "$LARGE requests, --history" "${rss[large]}" "${secs[large]}"
printf '%-44s %7s MB %8s\n' "stress judge of the $records-record history" "${rss[judge]}" "${secs[judge]}"
r=$(ratio "${rss[large]}" "${rss[small]}")
printf 'ratio --history %s/%s requests: %sx (target <= 1.5x)\n' "$LARGE" "$SMALL" "$r"
printf 'ratio --history/no history at %s requests: %sx\n' "$LARGE" "$(ratio "${rss[large]}" "${rss[nohist]}")"
ok=1
awk -v r="$r" 'BEGIN { exit !(r <= 1.5) }' || { echo "FAIL: --history RSS ratio $r > 1.5"; ok=0; }
[[ ${rss[judge]} -lt 500 ]] || { echo "FAIL: judge peak RSS ${rss[judge]} MB >= 500 MB"; ok=0; }
awk -v s="${secs[judge]}" 'BEGIN { exit !(s < 30) }' || { echo "FAIL: judge took ${secs[judge]} s >= 30 s"; ok=0; }
[[ $ok == 1 ]] && echo "targets met"
[[ $ok == 1 ]]
