# osctl: build, image, test, lint, bench, demo. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/osctl/osctl/internal/cli.Version=$(VERSION)
OSCTL_CACHE ?= /var/cache/osctl
GOLANGCI_VERSION ?= v2.15.0
GOLANGCI := $(OSCTL_CACHE)/tools/golangci-lint-$(GOLANGCI_VERSION)
TEST_TIMEOUT ?= 45m
export OSCTL_CACHE

.PHONY: build image test test-deps lint bench demo clean openstudio-server elb-openapi cluster
IMAGE ?= osctl:$(VERSION)

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/osctl ./cmd/osctl

# The osctl image (Dockerfile) that osctl stress --workers runs; IMAGE=your.registry/osctl:TAG to
# tag it for your registry (docs/stress-workers.md). Needs Docker.
image:
	@command -v docker >/dev/null || { echo "make image needs docker (not found on PATH)"; exit 2; }
	docker build --build-arg VERSION=$(VERSION) -t $(IMAGE) .

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
	rm -rf bin
