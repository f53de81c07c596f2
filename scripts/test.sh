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

# The tests of the stock JS clients (below) need node and npm.
if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing node and npm for the tests of the stock JS clients"
  (apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null) || echo "node/npm not installed"
fi
# The stock JS clients the tests drive, one npm package each: yjscheck
# (svc-content reads its Yjs updates back with the real yjs), realtimecheck
# (y-websocket, Hocuspocus, TipTap in jsdom against the realtime server),
# tiptapcheck (TipTap 3 + y-prosemirror for the prosemirror tests), docscheck
# (jsdom for the gateway's /docs page, standardwebhooks for docs/webhooks.md).
# Their tests skip without them, and fail when CI=true. The four installs run
# at once in the background: npm mostly waits on the network and the disk,
# so they overlap the vetting and compiling below instead of preceding it.
npm_logs=$(mktemp -d)
trap 'rm -rf "$npm_logs"' EXIT
npm_jobs=()
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  for tool in yjscheck realtimecheck tiptapcheck docscheck; do
    echo "npm ci --prefix tools/$tool (in the background)"
    npm ci --prefix "tools/$tool" --no-audit --no-fund >"$npm_logs/$tool" 2>&1 &
    npm_jobs+=("$!:$tool")
  done
else
  echo "node/npm not found; the tests of the stock JS clients cannot run"
fi

# wait_npm reports each install; a failed one is not fatal here (the tests
# that need it skip, or fail under CI=true, and say why).
wait_npm() {
  local job
  for job in "${npm_jobs[@]}"; do
    if ! wait "${job%%:*}"; then
      cat "$npm_logs/${job#*:}"
      echo "npm ci in tools/${job#*:} failed; the tests that drive it cannot run"
    fi
  done
}

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

wait_npm
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
# One target after the other: run side by side, the go commands compiled
# the same instrumented dependencies several times over on a cold build
# cache, and under load a target ran out of its fuzztime while still
# gathering its baseline coverage (a failure).
if [ "$fuzztime" != "0" ]; then
  for ft in "${fuzz_targets[@]}"; do
    read -r pkg target <<<"$ft"
    echo "go test -run '^\$' -fuzz '^${target}\$' -fuzztime $fuzztime $pkg"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
  done
fi
