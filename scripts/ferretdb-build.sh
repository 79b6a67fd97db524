#!/bin/bash
# Build FerretDB (MongoDB's wire protocol on SQLite), the database of the real OpenStudio Server in
# osctl's tests (internal/testenv/openstudioenv), from the Go module proxy into a cache outside the
# checkout, keyed by version, as k8s-build.sh does for the control plane. A warm cache returns at
# once. Prints the binary's path on its last line.
#   OSCTL_CACHE (default /var/cache/osctl)  FERRETDB_VERSION (default v1.24.2)
#
# A plain `go install github.com/FerretDB/FerretDB/cmd/ferretdb@VERSION` builds a binary that panics
# at start: build/version/version.txt is generated from git by upstream's build and is empty in
# the module zip. So the module's source is copied, that file written, and the copy built.
set -euo pipefail
FERRETDB_VERSION=${FERRETDB_VERSION:-v1.24.2}
CACHE=${OSCTL_CACHE:-/var/cache/osctl}
ROOT=$CACHE/ferretdb-$FERRETDB_VERSION
BIN=$ROOT/bin/ferretdb
if [ -f "$ROOT/.complete" ] && [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
echo "building FerretDB $FERRETDB_VERSION into $ROOT (about 2 min cold on 2 cores)" >&2
mkdir -p "$ROOT/bin"
export GOFLAGS=-mod=mod
MOD=$(cd /tmp && go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
[ -d "$MOD" ] || { echo "ferretdb-build: could not download github.com/FerretDB/FerretDB@$FERRETDB_VERSION from the Go module proxy" >&2; exit 2; }
rm -rf "$ROOT/src"
cp -r "$MOD" "$ROOT/src"
chmod -R u+w "$ROOT/src"
printf '%s\n' "$FERRETDB_VERSION" > "$ROOT/src/build/version/version.txt"
printf '%s\n' "osctl-cache" > "$ROOT/src/build/version/package.txt"
# GOTOOLCHAIN=local: build with the Go that is installed, never download the toolchain go.mod names.
(cd "$ROOT/src" && GOTOOLCHAIN=local go build -trimpath -ldflags='-s -w' -o "$BIN.tmp" ./cmd/ferretdb)
"$BIN.tmp" --version >/dev/null
mv "$BIN.tmp" "$BIN"
rm -rf "$ROOT/src"
touch "$ROOT/.complete"
echo "$BIN"
