#!/bin/bash
# osctl locks inspect vs `redis-cli --scan --pattern 'redlock:*'` (which only lists key names)
# on one real redis-server started here on a free loopback port, and the peak memory of
# streaming output (-o jsonl) at 1,000,000 keys.
#   1. 100,000 lock keys (redsync-style values, PX TTL): ROUNDS interleaved rounds of
#      redis-cli --scan and osctl locks inspect --pattern 'redlock:*' -o jsonl > /dev/null
#      (which also reads every value and TTL); medians and their ratio (target <= 1.5).
#      The default patterns (two SCAN passes) are timed too, for information.
#   2. 1,000,000 keys: peak RSS of inspect -o jsonl (target < 100 MB), from /usr/bin/time -v
#      or, without it, /proc/<pid>/status VmHWM.
# Env: ROUNDS (default 5), KEYS_SMALL (100000), KEYS_BIG (1000000), MAX_RATIO (1.5), MAX_RSS_MB (100).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${ROUNDS:-5}
small=${KEYS_SMALL:-100000}
big=${KEYS_BIG:-1000000}
max_ratio=${MAX_RATIO:-1.5}
max_rss=${MAX_RSS_MB:-100}
for c in redis-server redis-cli go; do
  command -v $c >/dev/null || { echo "$c is not installed (apt-get install -y redis-server)" >&2; exit 2; }
done
go build -o bin/osctl ./cmd/osctl
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" --daemonize no --logfile "$dir/redis.log" &
rpid=$!
trap 'kill $rpid 2>/dev/null; wait $rpid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
url=redis://127.0.0.1:$port
rc=0

# fill N: N lock keys redlock:<i>:extract with a 24-char base64 value and a 10 min TTL, plus a
# few thousand keys that match no pattern, loaded with redis-cli --pipe.
fill() {
  redis-cli -p "$port" flushall >/dev/null
  awk -v n="$1" 'BEGIN {
    for (i = 0; i < n; i++) {
      k = "redlock:" i ":extract"; v = sprintf("%022dAA", i); v = substr(v, 1, 22) "=="
      printf "*5\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n$2\r\nPX\r\n$6\r\n600000\r\n", length(k), k, length(v), v
    }
    for (i = 0; i < 5000; i++) { k = "resque:job:" i; printf "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$1\r\nx\r\n", length(k), k }
  }' | redis-cli -p "$port" --pipe >/dev/null
  echo "loaded $(redis-cli -p "$port" dbsize) keys ($1 locks)" >&2
}

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

fill "$small"
n=$(bin/osctl locks inspect --redis "$url" --pattern 'redlock:*' -o jsonl | wc -l)
[ "$n" -eq "$small" ] || { echo "inspect returned $n locks, want $small" >&2; exit 1; }
: >"$dir/scan" ; : >"$dir/inspect" ; : >"$dir/default"
for r in $(seq "$rounds"); do
  t=$(now); redis-cli -p "$port" --scan --pattern 'redlock:*' >/dev/null; echo $(( $(now) - t )) >>"$dir/scan"
  t=$(now); bin/osctl locks inspect --redis "$url" --pattern 'redlock:*' -o jsonl >/dev/null || true; echo $(( $(now) - t )) >>"$dir/inspect"
  t=$(now); bin/osctl locks inspect --redis "$url" -o jsonl >/dev/null || true; echo $(( $(now) - t )) >>"$dir/default"
done
scan=$(median <"$dir/scan"); insp=$(median <"$dir/inspect"); def=$(median <"$dir/default")
awk -v s="$scan" -v i="$insp" -v d="$def" -v n="$small" -v r="$rounds" -v max="$max_ratio" 'BEGIN {
  printf "locks inspect over %d lock keys on one master, median of %d interleaved rounds:\n", n, r
  printf "  redis-cli --scan --pattern redlock:* (names only)      %8.1f ms\n", s / 1e6
  printf "  osctl locks inspect --pattern redlock:* -o jsonl        %8.1f ms   ratio %.2f (target <= %s)\n", i / 1e6, i / s, max
  printf "  osctl locks inspect (default 2 patterns) -o jsonl       %8.1f ms   ratio %.2f (two SCAN passes)\n", d / 1e6, d / s
  if (i / s > max) { printf "inspect slower than target: %.2f > %s\n", i / s, max; exit 1 }
}' || rc=1

fill "$big"
if /usr/bin/time -v true >/dev/null 2>&1; then
  t=$(now)
  /usr/bin/time -v -o "$dir/time" bin/osctl locks inspect --redis "$url" --pattern 'redlock:*' -o jsonl >/dev/null || true
  el=$(( $(now) - t ))
  rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$dir/time")
else
  t=$(now)
  bin/osctl locks inspect --redis "$url" --pattern 'redlock:*' -o jsonl >/dev/null &
  p=$!; rss=0
  while kill -0 $p 2>/dev/null; do
    h=$(awk '/VmHWM/ {print $2}' /proc/$p/status 2>/dev/null || echo 0); [ "${h:-0}" -gt "$rss" ] && rss=$h; sleep 0.05
  done
  wait $p || true
  el=$(( $(now) - t ))
fi
awk -v k="$rss" -v n="$big" -v e="$el" -v max="$max_rss" 'BEGIN {
  printf "streaming (-o jsonl) over %d lock keys: peak RSS %.1f MB (target < %s MB), %.1f s, %.0f keys/s\n", n, k / 1024, max, e / 1e9, n / (e / 1e9)
  if (k / 1024 >= max) { print "peak RSS above target"; exit 1 }
}' || rc=1
exit $rc
