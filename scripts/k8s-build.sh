#!/bin/bash
# Build etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl and kwok from the
# Go module proxy into a cache outside the checkout, keyed by version. A warm cache returns at once.
# Prints the bin directory on its last line.
#   OSCTL_CACHE (default /var/cache/osctl)  K8S_VERSION ETCD_VERSION KWOK_VERSION
set -euo pipefail
K8S_VERSION=${K8S_VERSION:-v1.37.2}; ETCD_VERSION=${ETCD_VERSION:-v3.6.16}; KWOK_VERSION=${KWOK_VERSION:-v0.8.0}
CACHE=${OSCTL_CACHE:-/var/cache/osctl}
ROOT=$CACHE/k8s-$K8S_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION
BIN=$ROOT/bin
# kwok ships no lifecycle stages in the binary and its CRDs live in the module: take both from
# the module cache (cheap, so done on warm runs too when missing).
kwok_extras() {
  [ -f "$ROOT/kwok-stages.yaml" ] && [ -d "$ROOT/kwok-crds" ] && return 0
  local KW
  KW=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "sigs.k8s.io/kwok@$KWOK_VERSION" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
  for d in node/fast node/heartbeat-with-lease pod/fast; do
    for f in "$KW/kustomize/stage/$d"/*.yaml; do case "$f" in */kustomization.yaml) continue;; esac; echo '---'; cat "$f"; done
  done > "$ROOT/kwok-stages.yaml.tmp" && mv "$ROOT/kwok-stages.yaml.tmp" "$ROOT/kwok-stages.yaml"
  mkdir -p "$ROOT/kwok-crds.tmp"
  cp "$KW"/kustomize/crd/bases/*.yaml "$ROOT/kwok-crds.tmp/" && chmod 644 "$ROOT"/kwok-crds.tmp/*.yaml
  rm -rf "$ROOT/kwok-crds"; mv "$ROOT/kwok-crds.tmp" "$ROOT/kwok-crds"
}
if [ -f "$ROOT/.complete" ]; then kwok_extras; echo "$BIN"; exit 0; fi
mkdir -p "$BIN" "$ROOT/src/k8s" "$ROOT/src/etcd"
export GOFLAGS=-mod=mod
. "$(dirname "$0")/lib/k8s-module.sh"

echo "building kubernetes $K8S_VERSION control plane into $ROOT (about 13 min cold on 2 cores)" >&2
cd "$ROOT/src/k8s"
k8s_module example.local/k8sbins "$K8S_VERSION"
CMDS="k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl"
go get $(for c in $CMDS; do echo "$c@$K8S_VERSION"; done) >&2
LDF=$(k8s_ldflags "$K8S_VERSION")
go build -trimpath -ldflags="$LDF" -o "$BIN/" $CMDS

cd "$ROOT/src/etcd"
printf 'module example.local/etcdbin\n\ngo 1.26.0\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" > go.mod; rm -f go.sum
go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2
go build -trimpath -ldflags='-s -w' -o "$BIN/etcd" go.etcd.io/etcd/server/v3

GOBIN=$BIN go install -trimpath -ldflags='-s -w' "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
kwok_extras
touch "$ROOT/.complete"
echo "$BIN"
