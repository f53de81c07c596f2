#!/usr/bin/env bash
# Runs every test of every module in go.work. This is the README's test
# command (`make test`) and what CI runs; it installs what the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."

# A local redis-server gives each test its own Redis (pkg/testenv); without
# one the tests fall back to in-process miniredis, so this is best effort.
if ! command -v redis-server >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing redis-server for the tests"
  (apt-get update -qq && apt-get install -y -qq redis-server >/dev/null) || echo "redis-server not installed; tests use miniredis"
fi

# svc-content's CRDT tests load the Yjs updates they write with the real yjs
# package (tools/yjscheck); they skip without it, and fail when CI=true.
if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing node and npm for the yjs read-back tests"
  (apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null) || echo "node/npm not installed"
fi
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  echo "npm ci --prefix tools/yjscheck"
  npm ci --prefix tools/yjscheck --no-audit --no-fund >/dev/null || echo "npm ci in tools/yjscheck failed; the yjs read-back tests cannot run"
  # The realtime tests drive stock clients (y-websocket, Hocuspocus, TipTap
  # in jsdom) from tools/realtimecheck; they skip without it, and fail when
  # CI=true.
  echo "npm ci --prefix tools/realtimecheck"
  npm ci --prefix tools/realtimecheck --no-audit --no-fund >/dev/null || echo "npm ci in tools/realtimecheck failed; the realtime client tests cannot run"
  # TipTap 3 + y-prosemirror in jsdom for svc-content's prosemirror tests.
  echo "npm ci --prefix tools/tiptapcheck"
  npm ci --prefix tools/tiptapcheck --no-audit --no-fund >/dev/null || echo "npm ci in tools/tiptapcheck failed; the TipTap tests cannot run"
  # jsdom for the gateway's /docs page and the stock standardwebhooks
  # package for the webhook verification snippet of docs/webhooks.md.
  echo "npm ci --prefix tools/docscheck"
  npm ci --prefix tools/docscheck --no-audit --no-fund >/dev/null || echo "npm ci in tools/docscheck failed; the docs checks cannot run"
else
  echo "node/npm not found; the yjs read-back tests cannot run"
fi

# Every module of the workspace, as ./dir/... patterns.
mapfile -t patterns < <(go list -m -f '{{.Dir}}' | sed "s|^$PWD|.|; s|$|/...|")

echo "go vet ${patterns[*]}"
go vet "${patterns[@]}"

# Each service module builds on its own (GOWORK=off), as it is released.
./scripts/check-modules.sh

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt needed for:"; echo "$unformatted"; exit 1
fi

go test -count=1 -timeout 20m "$@" "${patterns[@]}"

# Fuzz the decoders of outside bytes briefly (their committed corpora in
# testdata/fuzz already ran above as ordinary tests). FUZZTIME=0 skips.
fuzztime="${FUZZTIME:-3s}"
fuzz_targets=(
  "./pkg/api FuzzDecodeEnvelope"
  "./pkg/api FuzzDecodeFreeForm"
  "./pkg/pagetoken FuzzLoad"
  "./svc-workspace/internal/webhook FuzzEndpointURL"
  "./svc-workspace/internal/httpapi FuzzWebhookRequestDecode"
)
if [ "$fuzztime" != "0" ]; then
  for ft in "${fuzz_targets[@]}"; do
    read -r pkg target <<<"$ft"
    echo "go test -run '^\$' -fuzz '^${target}\$' -fuzztime $fuzztime $pkg"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
  done
fi
