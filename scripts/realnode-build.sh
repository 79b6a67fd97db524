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

if [ ! -x "$BIN/kubelet" ] || [ ! -x "$BIN/kube-proxy" ]; then
  echo "building kubelet and kube-proxy $K8S_VERSION into $ROOT (about 7 min cold on 2 idle cores)" >&2
  STAGING=v0.${K8S_VERSION#v1.}
  MINOR=$(echo "$K8S_VERSION" | cut -d. -f2)
  cd "$ROOT/src/k8s"
  # The scripts/k8s-build.sh trick: a module requiring k8s.io/kubernetes with its staging modules
  # replaced by their published v0.X versions.
  KMOD=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
  REQ=$(awk '/^require \(/{r=1;next} r&&/^\)/{r=0} r{print $1" "$2}' "$KMOD" | awk '$2=="v0.0.0"{print $1}')
  { printf 'module example.local/k8snode\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$K8S_VERSION"
    grep -E '=> \./staging/' "$KMOD" | awk '{print $1}' | while read -r m; do
      echo "$REQ" | grep -qx "$m" && printf '\t%s => %s %s\n' "$m" "$m" "$STAGING"; done
    printf ')\n'; } > go.mod
  rm -f go.sum
  CMDS="k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy"
  go get $(for c in $CMDS; do echo "$c@$K8S_VERSION"; done) >&2
  V=k8s.io/component-base/version; C=k8s.io/client-go/pkg/version
  LDF="-s -w -X $V.gitVersion=$K8S_VERSION -X $V.gitMajor=1 -X $V.gitMinor=$MINOR -X $V.gitTreeState=clean -X $V.buildDate=2026-01-01T00:00:00Z -X $C.gitVersion=$K8S_VERSION -X $C.gitMajor=1 -X $C.gitMinor=$MINOR"
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
