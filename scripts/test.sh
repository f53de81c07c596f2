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
# scratch holds the npm logs and the deploy/local binary built below.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
npm_jobs=()
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  for tool in yjscheck realtimecheck tiptapcheck docscheck; do
    echo "npm ci --prefix tools/$tool (in the background)"
    npm ci --prefix "tools/$tool" --no-audit --no-fund >"$scratch/$tool" 2>&1 &
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
      cat "$scratch/${job#*:}"
      echo "npm ci in tools/${job#*:} failed; the tests that drive it cannot run"
    fi
  done
}

# phase runs a step and prints its wall time, also in a summary at the
# end, so a slow run (or one stopped half-way) says where its time went.
phase_times=()
phase() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  phase_times+=("$name $((SECONDS - start))s")
  echo "phase $name: $((SECONDS - start))s"
}

# Every module of the workspace, as ./dir/... patterns.
mapfile -t patterns < <(go list -m -f '{{.Dir}}' | sed "s|^$PWD|.|; s|$|/...|")

echo "go vet ${patterns[*]}"
phase vet go vet "${patterns[@]}"

# Each service module builds on its own (GOWORK=off), as it is released.
phase modules ./scripts/check-modules.sh

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt needed for:"; echo "$unformatted"; exit 1
fi

# The tests that kill -9 the whole system (deploy/local/cmd/crashtest,
# deploy/local/e2e) run it as a process: built once here, where go vet has
# compiled its packages already, instead of by each test while `go test`
# compiles the same packages beside it (localproc.BinEnv).
local_bin="$scratch/local"
echo "go build -o $local_bin ./deploy/local"
phase build-local go build -o "$local_bin" ./deploy/local
export TEST_LOCAL_BIN="$local_bin"

phase npm-wait wait_npm
# -vet=off: go vet above ran every analyzer go test would (a subset of
# vet's defaults) over the same packages and their test files.
echo "go test -count=1 -vet=off -timeout 20m ${patterns[*]}"
phase test go test -count=1 -vet=off -timeout 20m "$@" "${patterns[@]}"

# Fuzz the decoders of outside bytes briefly (their committed corpora in
# testdata/fuzz already ran above as ordinary tests). FUZZTIME=0 skips.
fuzztime="${FUZZTIME:-3s}"
fuzz_targets=(
  "./pkg/api FuzzDecodeEnvelope"
  "./pkg/api FuzzDecodeFreeForm"
  "./pkg/pagetoken FuzzLoad"
  "./svc-workspace/internal/webhook FuzzEndpointURL"
  "./svc-workspace/internal/httpapi FuzzWebhookRequestDecode"
  "./svc-content/internal/yjs FuzzApplyUpdate"
)
# go test -fuzz compiles every package of the test binary instrumented, so
# a fuzzed package keeps its test binary light: test files that need
# pkg/testenv's stores (MongoDB driver, embedded FerretDB, SQLite) carry
# //go:build !fuzzonly and stay out of this build; they ran above.
# light_fuzz_build fails a target whose fuzz build still imports testenv.
light_fuzz_build() {
  if go list -tags fuzzonly -deps -test "$1" | grep -qx 'github.com/opencollab/backend/pkg/testenv'; then
    echo "$1: its fuzz build imports pkg/testenv; mark the test files that need it //go:build !fuzzonly"
    return 1
  fi
}
# One target after the other: run side by side, the go commands compiled
# the same instrumented dependencies several times over on a cold build
# cache, and under load a target ran out of its fuzztime while still
# gathering its baseline coverage (a failure).
if [ "$fuzztime" != "0" ]; then
  for ft in "${fuzz_targets[@]}"; do
    read -r pkg target <<<"$ft"
    light_fuzz_build "$pkg"
    echo "go test -vet=off -tags fuzzonly -run '^\$' -fuzz '^${target}\$' -fuzztime $fuzztime $pkg"
    phase "fuzz-$target" go test -vet=off -tags fuzzonly -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
  done
fi
echo "wall time by phase: ${phase_times[*]}"
