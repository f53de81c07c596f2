# syntax=docker/dockerfile:1
#
# Image of one service, named by the SERVICE build argument (gateway, svc-workspace,
# svc-identity, svc-activity, svc-notify, svc-content, svc-memory). Build it from the
# REPOSITORY ROOT, because go.work and pkg/ are needed:
#
#   docker build --build-arg SERVICE=gateway --build-arg VERSION=$(cat gateway/VERSION) \
#     -t opencollab/gateway:v$(cat gateway/VERSION) .
#
# Without a container engine, `make images` builds the same images (bin/images). The first
# stage (down to `go mod download`) does not depend on SERVICE, so BuildKit builds it once and
# shares it between all images.

# ---- stage 1: build a static binary --------------------------------------------------------
ARG SERVICE=gateway

FROM golang:1.26-bookworm AS build
ARG SERVICE
WORKDIR /src
ENV CGO_ENABLED=0 \
    GOFLAGS=-buildvcs=false \
    GOTOOLCHAIN=local

# Module files first, sources later: the layers below are rebuilt only when a go.mod/go.sum
# changes, not on every code change.
#
# We build with the repository's own go.work rather than a generated minimal one, so the image
# resolves exactly the dependency versions that CI tested (the workspace picks versions across
# ALL its modules; a reduced go.work could pick different ones). The go command refuses a go.work
# whose `use` directories have no go.mod, so EVERY module named in go.work is copied here.
# When you add a module to go.work, add its line here (deploy/check fails until you do).
#
# `go.work*` and `<module>/go.*` are globs so that go.work.sum / go.sum are copied when they
# exist and skipped when they don't.
COPY go.work* ./
COPY pkg/go.* pkg/
COPY gateway/go.* gateway/
COPY svc-workspace/go.* svc-workspace/
COPY svc-identity/go.* svc-identity/
COPY svc-activity/go.* svc-activity/
COPY svc-content/go.* svc-content/
COPY svc-notify/go.* svc-notify/
COPY svc-memory/go.* svc-memory/
COPY deploy/local/go.* deploy/local/
COPY deploy/check/go.* deploy/check/
COPY bench/go.* bench/
RUN go mod download

# Only the sources this binary is built from: pkg and the service itself (a service never
# imports another service's module), so a change elsewhere doesn't rebuild this image.
COPY pkg/ pkg/
COPY ${SERVICE}/ ${SERVICE}/
RUN --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/app ./${SERVICE}/cmd/${SERVICE}

# ---- stage 2: minimal runtime (no shell, no package manager; CA certs and tzdata included) -
FROM gcr.io/distroless/static-debian12:nonroot
ARG SERVICE
ARG VERSION=dev
LABEL org.opencontainers.image.title="${SERVICE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="https://github.com/opencollab/backend" \
      org.opencontainers.image.description="opencollab backend: ${SERVICE}"
COPY --from=build /out/app /app
# uid/gid 65532; the Kubernetes manifests and docker-compose.yml run it with the same ids.
USER nonroot:nonroot
ENV LISTEN_ADDR=:8080
EXPOSE 8080
ENTRYPOINT ["/app"]
