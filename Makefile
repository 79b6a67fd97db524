# osctl: build, image, test, lint, bench, demo. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
GO ?= go
# The tag at HEAD, else the pseudo-version Go stamps (v0.0.0-YYYYMMDDHHMMSS-<commit>[+dirty]).
VERSION ?= $(shell scripts/version.sh)
LDFLAGS := -X github.com/osctl/osctl/internal/cli.Version=$(VERSION)
OSCTL_CACHE ?= /var/cache/osctl
GOLANGCI_VERSION ?= v2.15.0
GOLANGCI := $(OSCTL_CACHE)/tools/golangci-lint-$(GOLANGCI_VERSION)
TEST_TIMEOUT ?= 45m
export OSCTL_CACHE

.PHONY: build dist dist-binaries image image-tar release-tool krew-tools test test-short test-release test-deps lint bench demo clean openstudio-server elb-openapi cluster
# An image tag cannot hold '+': a dirty tree's v0.0.0-...+dirty is tagged v0.0.0-...-dirty.
IMAGE ?= ghcr.io/osctl/osctl:$(subst +,-,$(VERSION))

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/osctl ./cmd/osctl

# --- Release (docs: README "Install"). No Docker: the tools are Go, pinned in tools/release/go.mod.
# The commit's time is every archive member's and image file's mtime and the image's creation time,
# so two runs of one commit write the same bytes (checksums.txt).
COMMIT_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
IMAGE_PLATFORMS := linux/amd64 linux/arm64
RELEASE_LDFLAGS := -s -w $(LDFLAGS)
DIST_BIN := dist/build
RELEASE_TOOL := bin/osctl-release
CA_BUNDLE ?= /etc/ssl/certs/ca-certificates.crt
KREW_VERSION ?= v0.4.3
KREW_TOOLS := $(OSCTL_CACHE)/tools/krew-$(KREW_VERSION)
LICENSE_FILE := LICENSE
# Stable across runs, distinct per version: the SBOM's serial number.
SBOM_SERIAL = $(shell printf 'osctl %s' '$(VERSION)' | sha256sum | sed -E 's/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/\1-\2-\3-\4-\5/')

release-tool:
	cd tools/release && $(GO) build -trimpath -o ../../$(RELEASE_TOOL) .

# Static (CGO_ENABLED=0), stripped, -trimpath osctl for each of PLATFORMS in dist/build/OS_ARCH/.
dist-binaries:
	@set -e; for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; echo "build $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -buildvcs=auto -ldflags "$(RELEASE_LDFLAGS)" \
			-o $(DIST_BIN)/$${os}_$${arch}/osctl ./cmd/osctl || { echo "make dist: osctl does not build for $$os/$$arch"; exit 2; }; done

# dist/: osctl_VERSION_OS_ARCH.tar.gz (osctl, README.md, LICENSE),
# osctl_VERSION_sbom.cdx.json (CycloneDX), krew/osctl.yaml, image/ (the multi-arch image as an OCI
# layout), osctl-image-linux-amd64.tar (docker-save form: docker load, ctr images import) and
# checksums.txt (sha256sum -c).
dist: release-tool
	rm -rf dist
	$(MAKE) --no-print-directory dist-binaries
	@set -e; for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; \
		$(RELEASE_TOOL) archive -version $(VERSION) -epoch $(COMMIT_EPOCH) -os $$os -arch $$arch \
			-bin $(DIST_BIN)/$${os}_$${arch}/osctl -out dist README.md $(LICENSE_FILE); done
	cd tools/release && $(GO) tool cyclonedx-gomod mod -json -notimestamp -serial $(SBOM_SERIAL) \
		-output ../../dist/osctl_$(VERSION)_sbom.cdx.json ../..
	$(RELEASE_TOOL) krew -version $(VERSION) -files $$(echo README.md $(LICENSE_FILE) | tr ' ' ,) -out dist/krew/osctl.yaml dist/osctl_*.tar.gz
	$(RELEASE_TOOL) image -version $(VERSION) -epoch $(COMMIT_EPOCH) -ca $(CA_BUNDLE) -tag $(IMAGE) \
		$(foreach p,$(IMAGE_PLATFORMS),-bin $(p)=$(DIST_BIN)/$(subst /,_,$(p))/osctl) \
		-layout dist/image -tar dist/osctl-image-linux-amd64.tar
	cd dist && LC_ALL=C sha256sum osctl_*.tar.gz osctl_*_sbom.cdx.json osctl-image-linux-amd64.tar krew/osctl.yaml > checksums.txt
	@cat dist/checksums.txt

# Builds the multi-arch image (linux/amd64, linux/arm64) from scratch and pushes it to IMAGE with
# go-containerregistry (credentials from ~/.docker/config.json); no Docker. The Dockerfile stays
# for people who build with Docker.
image: release-tool
	$(MAKE) --no-print-directory dist-binaries PLATFORMS="$(IMAGE_PLATFORMS)"
	$(RELEASE_TOOL) image -version $(VERSION) -epoch $(COMMIT_EPOCH) -ca $(CA_BUNDLE) \
		$(foreach p,$(IMAGE_PLATFORMS),-bin $(p)=$(DIST_BIN)/$(subst /,_,$(p))/osctl) -push $(IMAGE)

# dist/osctl-image-linux-amd64.tar alone, named IMAGE: `ctr -n k8s.io images import` or `docker load`.
image-tar: release-tool
	$(MAKE) --no-print-directory dist-binaries PLATFORMS=linux/amd64
	$(RELEASE_TOOL) image -version $(VERSION) -epoch $(COMMIT_EPOCH) -ca $(CA_BUNDLE) -tag $(IMAGE) \
		-bin linux/amd64=$(DIST_BIN)/linux_amd64/osctl -tar dist/osctl-image-linux-amd64.tar

# krew and validate-krew-manifest, built once from the module proxy into the cache.
krew-tools: $(KREW_TOOLS)/krew
$(KREW_TOOLS)/krew:
	mkdir -p $(KREW_TOOLS)
	GOBIN=$(KREW_TOOLS) $(GO) install sigs.k8s.io/krew/cmd/krew@$(KREW_VERSION) sigs.k8s.io/krew/cmd/validate-krew-manifest@$(KREW_VERSION)

# The release tests (make dist twice on a fresh clone, krew install, make image to a loopback registry).
test-release: krew-tools
	cd tools/release && OSCTL_KREW_TOOLS=$(KREW_TOOLS) $(GO) test -count=1 -timeout 40m ./...

test-deps:
	@scripts/test-deps.sh >/dev/null

# Every test: unit, real redis-server, sandbox processes, UML NFS, and the kube-apiserver harness.
# osctl is built once (without -race, so load tests run at full speed) and handed to every test
# package that runs the binary (internal/testenv.OsctlBinary reads OSCTL_TEST_BINARY).
TEST_BINARY := bin/test/osctl
test: test-deps
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) build -o $(TEST_BINARY) ./cmd/osctl
	OSCTL_TEST_BINARY=$(CURDIR)/$(TEST_BINARY) OSCTL_K8S_BIN=$$(scripts/k8s-build.sh | tail -1) OSCTL_FERRETDB=$$(scripts/ferretdb-build.sh | tail -1) \
		OSCTL_REALNODE_BIN=$$(scripts/realnode-build.sh | tail -1) \
		$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./...
	$(MAKE) --no-print-directory test-release

# The inner loop: go vet and every test but the end-to-end harnesses (the control plane, real nodes,
# UML, Chromium, the real OpenStudio Server and elb-openapi, Ruby, Prometheus, and the slow runs of
# the osctl binary against sandbox processes skip under -short: internal/testenv.SkipIfShort).
# Needs no test-deps beyond redis-server; under 3 minutes on 2 cores with a warm build cache.
test-short:
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) build -o $(TEST_BINARY) ./cmd/osctl
	OSCTL_TEST_BINARY=$(CURDIR)/$(TEST_BINARY) $(GO) test -short -count=1 ./...

# The real OpenStudio Server v3.7.0 on this machine, as the tests run it (3 replicas; ARGS=--patched
# for contrib/rails's lock, --help for the rest): prints the targets and the state dir for
# `osctl stress`, and stops every process it started on Ctrl-C. Needs scripts/test-deps.sh's packages.
openstudio-server:
	OSCTL_FERRETDB=$$(scripts/ferretdb-build.sh | tail -1) $(GO) run ./internal/testenv/openstudioenv/cmd/openstudio-server $(ARGS)

# The real elb-openapi (third_party/elb-openapi-352a1f4) on loopback, 2 replicas, with faked
# kubectl/azcopy/az/elastic-blast (docs/migration/jobs.md); the token is ELB_OPENAPI_API_TOKEN.
elb-openapi:
	$(GO) build -o bin/elb-openapi ./internal/testenv/elbenv/cmd/elb-openapi
	bin/elb-openapi $(ARGS)

# A real Kubernetes cluster for a person: the tests' control plane and NODES real nodes (kubelet,
# containerd, runc, CNI bridge, kube-proxy) in namespaces of their own; prints `kubeconfig: PATH`
# once Ready, and stops everything on Ctrl-C. Needs root and scripts/test-deps.sh's packages.
NODES ?= 1
cluster: test-deps
	CGO_ENABLED=0 $(GO) build -o $(TEST_BINARY) ./cmd/osctl
	$(GO) build -o bin/cluster ./internal/testenv/realnode/cmd/cluster
	OSCTL_K8S_BIN=$$(scripts/k8s-build.sh | tail -1) OSCTL_REALNODE_BIN=$$(scripts/realnode-build.sh | tail -1) \
		bin/cluster --nodes $(NODES) --osctl $(CURDIR)/$(TEST_BINARY)

$(GOLANGCI):
	mkdir -p $(OSCTL_CACHE)/tools
	GOBIN=$(OSCTL_CACHE)/tools/gobin $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION)
	mv $(OSCTL_CACHE)/tools/gobin/golangci-lint $(GOLANGCI)

lint: $(GOLANGCI)
	$(GO) vet ./...
	test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) mod tidy -diff
	$(GOLANGCI) run ./...

bench: build
	scripts/bench.sh

demo: build
	scripts/demo.sh

clean:
	rm -rf bin dist
