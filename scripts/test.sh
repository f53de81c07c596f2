#!/usr/bin/env bash
# Runs every test of every module in go.work. This is the README's test
# command (`make test`) and what CI runs; it installs what the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."

# -trimpath for every go command below (vet, the module builds, go test,
# the fuzz targets, and the go builds tests run): without it Go keys each
# compiled package of this repository by its directory, so a clone at
# another path (CI clones afresh for each run, a developer's worktree)
# compiled all of them again although GOCACHE held them; with it the
# build cache is shared by every checkout of the same code. Added to the
# GOFLAGS `go env` gives, which the environment variable would replace.
GOFLAGS="$(go env GOFLAGS) -trimpath"
export GOFLAGS

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
# npm can stall for good on a registry connection (seen: an install sat
# with open connections and no progress for over ten minutes, past npm's
# own fetch timeout), which would hang the whole run. Each attempt is
# bounded (an install takes 7-40 s here) and a stalled or failed one is
# tried again: npm ci starts from an empty node_modules, and the tarballs
# already fetched come from npm's cache.
npm_install() {
  local tool=$1 attempt
  for attempt in 1 2 3; do
    timeout -k 10 240 npm ci --prefix "tools/$tool" --no-audit --no-fund && return 0
    echo "npm ci in tools/$tool: attempt $attempt failed or stalled (exit $?)"
  done
  return 1
}
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  for tool in yjscheck realtimecheck tiptapcheck docscheck; do
    echo "npm ci --prefix tools/$tool (in the background)"
    npm_install "$tool" >"$scratch/$tool" 2>&1 &
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

# phase runs a step and prints its wall time and its CPU time (user+sys
# of the processes it ran and waited for), also in a summary at the end,
# so a slow run (or one stopped half-way) says where its time went, and
# whether the step computed or waited: CPU near 2x wall on 2 cores is a
# busy step, CPU far below wall a waiting one.
phase_times=()
phase() {
  local name=$1 start=$SECONDS cpu
  shift
  child_cpu
  local cpu0=$cpu rc=0
  "$@" || rc=$?
  child_cpu
  phase_times+=("$name $((SECONDS - start))s/$((cpu - cpu0))s")
  echo "phase $name: $((SECONDS - start))s wall, $((cpu - cpu0))s CPU"
  return "$rc"
}

# child_cpu sets cpu to the CPU seconds of the script's finished children
# so far (the second line of bash's `times`, user and sys). `times` runs in
# this shell, not in a $(...) subshell, whose children's times start at 0.
# The file is per shell: the background job below runs phase too.
child_cpu() {
  local f="$scratch/times.$BASHPID"
  times >"$f"
  cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } printf "%d", s }' "$f")
}

# Every module of the workspace, as ./dir/... patterns.
mapfile -t patterns < <(go list -m -f '{{.Dir}}' | sed "s|^$PWD|.|; s|$|/...|")

echo "go vet ${patterns[*]}"
phase vet go vet "${patterns[@]}"

# Each module builds on its own (GOWORK=off), as it is released; this also
# compiles the test packages go test links below.
phase modules ./scripts/check-modules.sh

# bench/schedwait (reads the gateway's execution traces) is a module of its
# own, outside go.work: its trace reader, golang.org/x/exp/trace, would move
# the workspace's golang.org/x versions. Vetted and tested on its own.
phase schedwait bash -c 'cd bench/schedwait && GOWORK=off go vet ./... && GOWORK=off go test -count=1 ./...'

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt needed for:"; echo "$unformatted"; exit 1
fi

# -ldflags=-w: the test binaries and deploy/local's are run once and thrown
# away, never debugged, so the linker leaves out their DWARF, a third of
# its work (stack traces and panics use the symbol table, which stays).
ldflags=-ldflags=-w

# The tests that kill -9 the whole system (deploy/local/cmd/crashtest,
# deploy/local/e2e) run it as a process: built once here, where go vet has
# compiled its packages already, instead of by each test while `go test`
# compiles the same packages beside it (localproc.BinEnv).
local_bin="$scratch/local"
echo "go build $ldflags -o $local_bin ./deploy/local"
phase build-local go build "$ldflags" -o "$local_bin" ./deploy/local
export TEST_LOCAL_BIN="$local_bin"

# Fuzz the decoders of outside bytes briefly (their committed corpora in
# testdata/fuzz run with the tests as ordinary tests). Each target runs a
# fixed number of inputs (FUZZEXECS=n for n each, FUZZEXECS=0 skips)
# rather than for a time: the same work whatever runs beside it, and no
# failure when a loaded machine spent the time gathering the baseline
# coverage. The counts are about what 3 s of fuzzing (the earlier
# FUZZTIME) ran on the 2-core machine.
fuzz_targets=(
  "./pkg/api FuzzDecodeEnvelope 100000"
  "./pkg/api FuzzDecodeFreeForm 100000"
  "./pkg/pagetoken FuzzLoad 15000"
  "./svc-workspace/internal/webhook FuzzEndpointURL 15000"
  "./svc-workspace/internal/httpapi FuzzWebhookRequestDecode 10000"
  "./svc-content/internal/yjs FuzzApplyUpdate 50000"
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
# fuzz_all runs the targets one after the other: run side by side, the go
# commands compiled the same instrumented dependencies several times over
# on a cold build cache.
fuzz_all() {
  local ft pkg target execs
  [ "${FUZZEXECS:-}" != "0" ] || return 0
  for ft in "${fuzz_targets[@]}"; do
    read -r pkg target execs <<<"$ft"
    execs=${FUZZEXECS:-$execs}
    light_fuzz_build "$pkg"
    echo "go test -vet=off $ldflags -tags fuzzonly -run '^\$' -fuzz '^${target}\$' -fuzztime ${execs}x $pkg"
    phase "fuzz-$target" go test -vet=off "$ldflags" -tags fuzzonly -run '^$' -fuzz "^${target}\$" -fuzztime "${execs}x" "$pkg"
  done
}

# The fuzz targets run in the background while go test runs: most of go
# test's time is compiling and linking, but towards its end few test
# binaries are left and they mostly wait on the systems they started;
# fuzzing fills that idle CPU instead of following go test.
beside_tests() {
  phase_times=()
  fuzz_all
  echo "beside go test, wall/CPU time by phase: ${phase_times[*]}"
}

phase npm-wait wait_npm
echo "in the background: the fuzz targets (their output follows go test's)"
beside_tests >"$scratch/beside" 2>&1 &
beside=$!
# -vet=off: go vet above ran every analyzer go test would (a subset of
# vet's defaults) over the same packages and their test files.
# -p 3 -parallel 4 (both default to the number of cores, 2 here): many
# test binaries spend most of their time waiting (on a redis-server, a
# server's idle timeout, a consumer's poll, the system a test started),
# and with 2 of them at a time, or 2 tests of one, the CPU sat idle; more
# would oversubscribe the CPU-bound ones (deploy/local/e2e).
# scripts/testbin.sh runs the same tests the same way, but keeps the
# linked test binaries in a per-user cache (README "Test time"), so
# unchanged code is not linked again; with arguments for go test (make
# test passes none) it is go test itself.
test_status=0
if [ "$#" = 0 ]; then
  echo "scripts/testbin.sh (go test -count=1 -vet=off $ldflags -p 3 -parallel 4 -timeout 20m, cached test binaries) ${patterns[*]}"
  phase test env TESTBIN_LDFLAGS="$ldflags" ./scripts/testbin.sh "${patterns[@]}" || test_status=$?
else
  echo "go test -count=1 -vet=off $ldflags -p 3 -parallel 4 -timeout 20m $* ${patterns[*]}"
  phase test go test -count=1 -vet=off "$ldflags" -p 3 -parallel 4 -timeout 20m "$@" "${patterns[@]}" || test_status=$?
fi

# Waited for even when go test failed, so no fuzzing outlives the script.
# The job's CPU counts in the phase running when it ends (bash collects
# its times then), usually test; its own lines below give its figures.
beside_status=0
phase beside-wait wait "$beside" || beside_status=$?
cat "$scratch/beside"
echo "wall/CPU time by phase: ${phase_times[*]}"
if [ "$test_status" != 0 ]; then
  echo "go test failed (above)"
  exit "$test_status"
fi
if [ "$beside_status" != 0 ]; then
  echo "a fuzz target failed (above)"
  exit 1
fi
