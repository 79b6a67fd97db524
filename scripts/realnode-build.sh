#!/bin/bash
# Build what a real Kubernetes node needs for the tests' real-node harness (internal/testenv/realnode)
# from the Go module proxy, once, into a cache outside the checkout keyed by version; a warm cache
# returns at once. runc and the CNI plugins come from Debian (scripts/test-deps.sh installs them).
#   kubelet and kube-proxy  K8S_VERSION (same as the control plane of scripts/k8s-build.sh)
#   containerd, its runc v2 shim and ctr  CONTAINERD_VERSION (2.x; built with CGO, without the
#     btrfs/devmapper/zfs/aufs snapshotters)
# Prints the bin directory (kubelet kube-proxy containerd containerd-shim-runc-v2 ctr) on its last line.
#   OSCTL_CACHE (default /var/cache/osctl)  K8S_VERSION  CONTAINERD_VERSION  BUILD_P (parallel packages, 1)
set -euo pipefail
K8S_VERSION=${K8S_VERSION:-v1.37.2}; CONTAINERD_VERSION=${CONTAINERD_VERSION:-v2.4.2}
CACHE=${OSCTL_CACHE:-/var/cache/osctl}
ROOT=$CACHE/realnode-k8s-$K8S_VERSION-containerd-$CONTAINERD_VERSION
BIN=$ROOT/bin
if [ -f "$ROOT/.complete" ]; then echo "$BIN"; exit 0; fi
mkdir -p "$BIN" "$ROOT/src/k8s" "$ROOT/src/containerd"
export GOFLAGS=-mod=mod
P=${BUILD_P:-1}
SCRIPTS=$(cd "$(dirname "$0")" && pwd)

if [ ! -x "$BIN/kubelet" ] || [ ! -x "$BIN/kube-proxy" ]; then
  echo "building kubelet and kube-proxy $K8S_VERSION into $ROOT (about 7 min cold on 2 idle cores)" >&2
  cd "$ROOT/src/k8s"
  . "$SCRIPTS/lib/k8s-module.sh"
  k8s_module example.local/k8snode "$K8S_VERSION"
  CMDS="k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy"
  go get $(for c in $CMDS; do echo "$c@$K8S_VERSION"; done) >&2
  LDF=$(k8s_ldflags "$K8S_VERSION")
  go build -p "$P" -trimpath -ldflags="$LDF" -o "$BIN/" $CMDS
fi

if [ ! -x "$BIN/containerd" ] || [ ! -x "$BIN/containerd-shim-runc-v2" ] || [ ! -x "$BIN/ctr" ]; then
  echo "building containerd $CONTAINERD_VERSION into $ROOT (about 2 min cold)" >&2
  cd "$ROOT/src/containerd"
  printf 'module example.local/containerdbins\n\ngo 1.26.0\n\nrequire github.com/containerd/containerd/v2 %s\n' "$CONTAINERD_VERSION" > go.mod
  rm -f go.sum
  M=github.com/containerd/containerd/v2
  CMDS="$M/cmd/containerd $M/cmd/containerd-shim-runc-v2 $M/cmd/ctr"
  go get $(for c in $CMDS; do echo "$c@$CONTAINERD_VERSION"; done) >&2
  CGO_ENABLED=1 go build -p "$P" -trimpath -tags "no_btrfs no_devmapper no_zfs no_aufs" \
    -ldflags "-s -w -X $M/version.Version=$CONTAINERD_VERSION" -o "$BIN/" $CMDS
fi
touch "$ROOT/.complete"
echo "$BIN"
