#!/bin/bash
# Build helm from the Go module proxy into a cache outside the checkout, keyed by version, as
# k8s-build.sh does for the control plane. A warm cache returns at once. Prints the binary's path
# on its last line. contrib/helm/render uses the helm on PATH, else this one.
#   OSCTL_CACHE (default /var/cache/osctl)  HELM_VERSION (default v3.21.4; v4.x.y builds Helm 4)
set -euo pipefail
HELM_VERSION=${HELM_VERSION:-v3.21.4}
CACHE=${OSCTL_CACHE:-/var/cache/osctl}
BIN=$CACHE/tools/helm-$HELM_VERSION
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
MAJOR=${HELM_VERSION%%.*}
case "$MAJOR" in v3|v4) ;; *) echo "helm-build: HELM_VERSION $HELM_VERSION is not a v3 or v4 release (v3.21.4, v4.3.2)" >&2; exit 2;; esac
MOD=helm.sh/helm/$MAJOR
echo "building helm $HELM_VERSION into $BIN (a few minutes cold on 2 cores)" >&2
mkdir -p "$CACHE/tools"
GOBIN=$(mktemp -d "$CACHE/tools/.helm-build.XXXXXX")
trap 'rm -rf "$GOBIN"' EXIT
# The version helm prints (helm version) comes from ldflags, as upstream's Makefile sets them.
GOBIN=$GOBIN GOFLAGS=-mod=mod GOTOOLCHAIN=local go install -trimpath \
  -ldflags "-s -w -X $MOD/internal/version.version=$HELM_VERSION -X $MOD/internal/version.gitTreeState=clean" \
  "$MOD/cmd/helm@$HELM_VERSION"
"$GOBIN/helm" version --template '{{.Version}}' | grep -qx "$HELM_VERSION" || {
  echo "helm-build: the built helm does not report $HELM_VERSION" >&2; exit 2; }
mv "$GOBIN/helm" "$BIN"
echo "$BIN"
