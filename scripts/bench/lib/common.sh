# Sourced by the HTTP benchmarks in scripts/bench (not a benchmark itself): a work directory and
# the loopback server, both removed or stopped on exit, and the osctl under test.
#
#   bench_init NAME     work=/tmp/osctl-bench-NAME.XXXXXX, cleaned up on exit
#   bench_osctl         OSCTL: the one given in the environment, else a build of this checkout
#   bench_server        starts scripts/bench/countserver; sets addr, url and server_pid

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
server_pid=""

say() { printf '%s\n' "$*" >&2; }

bench_cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}

bench_init() {
	work=$(mktemp -d "/tmp/osctl-bench-$1.XXXXXX")
	trap bench_cleanup EXIT
}

bench_osctl() {
	if [[ -z ${OSCTL:-} ]]; then
		OSCTL=$work/osctl
		(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$OSCTL" ./cmd/osctl)
	fi
}

bench_server() {
	(cd "$root" && CGO_ENABLED=0 go build -o "$work/countserver" ./scripts/bench/countserver)
	"$work/countserver" >"$work/addr" &
	server_pid=$!
	for _ in $(seq 50); do [[ -s $work/addr ]] && break; sleep 0.1; done
	[[ -s $work/addr ]] || { say "the bench server printed no address within 5 s"; exit 1; }
	addr=$(cat "$work/addr")
	url="http://$addr/"
}
