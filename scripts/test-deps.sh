#!/bin/bash
# Install what osctl's tests need on a fresh Debian machine, and build (or find cached) the
# Kubernetes control plane binaries and FerretDB. Safe to run again: it only installs what is missing.
set -euo pipefail
need=()
command -v redis-server >/dev/null || need+=(redis-server)
# The Redis Cluster tests create their cluster with redis-cli --cluster create; the Sentinel tests
# run redis-server --sentinel (no redis-sentinel package needed).
command -v redis-cli >/dev/null || need+=(redis-tools)
command -v linux.uml >/dev/null || need+=(user-mode-linux)
command -v rpc.nfsd >/dev/null || need+=(nfs-kernel-server)
command -v mount.nfs >/dev/null || need+=(nfs-common)
command -v rpcbind >/dev/null || need+=(rpcbind)
command -v modprobe >/dev/null || need+=(kmod)
command -v openssl >/dev/null || need+=(openssl)
command -v ip >/dev/null || need+=(iproute2)
command -v perl >/dev/null || need+=(perl)
# contrib/rails/osctl_lock.rb and the ```ruby blocks of docs/migration: Debian's ruby and its redis gem.
command -v ruby >/dev/null || need+=(ruby)
if ! command -v ruby >/dev/null || ! ruby -e 'require "redis"' 2>/dev/null; then need+=(ruby-redis); fi
# The real OpenStudio Server v3.7.0 (internal/testenv/openstudioenv, third_party/README.md): Ruby
# on Rails 6.1 and most of the app's gems from Debian, Passenger as upstream's image runs it, unzip
# (the tests check torn zips with unzip -t) and git (git apply of contrib/rails's patch).
for p in ruby-rails passenger ruby-bundler ruby-jbuilder ruby-nokogiri ruby-zip ruby-bson ruby-redis-namespace ruby-rest-client \
  ruby-multi-json ruby-nio4r ruby-msgpack ruby-sinatra ruby-mono-logger ruby-delayed-job ruby-kaminari ruby-marcel ruby-mime-types \
  ruby-climate-control ruby-sprockets-rails ruby-mail ruby-loofah unzip git; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
# The PromQL rollout gate and locks serve-metrics tests: a real Prometheus; the package ships promtool.
if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then need+=(prometheus); fi
# The browser tests open the HTML reports in headless Chromium (internal/testenv/browser); a font
# so that their text renders.
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# The real elb-openapi (third_party/elb-openapi-352a1f4, internal/testenv/elbenv) runs under
# Debian's own /usr/bin/python3 and its FastAPI stack: fastapi 0.92, uvicorn 0.17.6, pydantic 1.10.
if ! /usr/bin/python3 -c 'import fastapi, uvicorn, pydantic, starlette, h11, requests' 2>/dev/null; then
  need+=(python3-fastapi python3-uvicorn python3-pydantic python3-starlette python3-h11 python3-requests)
fi
# Real nodes (internal/testenv/realnode, make cluster): Debian's runc and CNI plugins beside the
# kubelet and containerd that scripts/realnode-build.sh builds; iptables and conntrack for
# kube-proxy (inside the nodes' network namespace only); busybox for the test pods' images.
command -v runc >/dev/null || need+=(runc)
[ -x /usr/lib/cni/bridge ] && [ -x /usr/lib/cni/host-local ] || need+=(containernetworking-plugins)
command -v iptables >/dev/null || need+=(iptables)
command -v conntrack >/dev/null || need+=(conntrack)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v nsenter >/dev/null && command -v unshare >/dev/null || need+=(util-linux)
# containerd builds with cgo (scripts/realnode-build.sh).
command -v gcc >/dev/null || need+=(gcc libc6-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing packages: ${need[*]}; run: sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
    exit 2
  fi
  echo "installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Other jobs on the machine may hold the dpkg lock: wait for it rather than fail.
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >&2
fi
"$(dirname "$0")/k8s-build.sh"
# FerretDB (MongoDB's protocol on SQLite) for the real OpenStudio Server, built once into the cache.
"$(dirname "$0")/ferretdb-build.sh"
# helm, which contrib/helm/render and its test (contrib/helm) run when no helm is on PATH.
"$(dirname "$0")/helm-build.sh"
# ... and Helm 4, whose post-renderer is a plugin (contrib/helm/osctl-chart-change).
HELM_VERSION=v4.3.2 "$(dirname "$0")/helm-build.sh"
# kubelet, kube-proxy and containerd for the real nodes, built once into the cache.
"$(dirname "$0")/realnode-build.sh"
