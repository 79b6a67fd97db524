# The osctl image: a static osctl on distroless (no shell, no package manager), run as nonroot.
# osctl stress --workers runs its load workers from it (docs/stress-workers.md): the pods' command
# and the exec'd one are `osctl ...`, found on the image's PATH (/usr/local/bin).
#
# Nothing needs this file: `make image` builds the same image without Docker (from scratch, with
# go-containerregistry: tools/release) and pushes it; it stays for people who build with Docker:
#
#   docker build --build-arg VERSION=$(scripts/version.sh) -t registry.example.com/osctl:TAG .
FROM golang:1.26 AS build
ARG VERSION=dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/osctl/osctl/internal/cli.Version=${VERSION}" -o /out/osctl ./cmd/osctl

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/osctl /usr/local/bin/osctl
USER 65532:65532
ENTRYPOINT ["osctl"]
