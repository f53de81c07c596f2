#!/usr/bin/env bash
# testbin.sh PATTERN... runs the tests of the packages PATTERN names as
# `go test -count=1 -p 3 -parallel 4 -timeout 20m` would, but keeps each
# linked test binary in a per-user cache outside the checkout, so a run
# of unchanged code (a fresh CI clone of a commit built before, a second
# `make test`) links nothing: go test links every test binary on every
# run (most of its CPU on a warm build cache), while `go test -c -o FILE`
# leaves FILE alone when its build ID already matches the code.
#
# Cache: ${XDG_CACHE_HOME:-$HOME/.cache}/opencollab/testbin, one
# <import path with / as +>.test per package; `rm -rf` it to clear it.
# Concurrent runs (a worktree and CI) never write a file the other runs:
# each run hard-links the cached binaries into a directory of its own,
# where go replaces (new inode) any that changed, runs them there, and
# renames them over the cached ones at the end.
#
# Environment: TESTBIN_LDFLAGS (e.g. -ldflags=-w) for the build.
set -euo pipefail

cache="${XDG_CACHE_HOME:-$HOME/.cache}/opencollab/testbin"
mkdir -p "$cache"
run=$(mktemp -d "$cache/run.XXXXXX")
trap 'rm -rf "$run"' EXIT

# Packages with test files, as "import-path dir"; each gets group g<n>,
# n the number of packages before it with the same last element, since
# `go test -c -o DIR/` names a binary after that element.
go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{.Dir}}{{end}}' "$@" |
  awk 'NF { n = split($1, e, "/"); g = seen[e[n]]++; print $1, $2, "g" g, e[n] }' >"$run/pkgs"

# Seed each group directory with the cached binaries (hard links).
while read -r ip dir group base; do
  mkdir -p "$run/$group"
  ln -f "$cache/${ip//\//+}.test" "$run/$group/$base.test" 2>/dev/null || true
done <"$run/pkgs"

# One go command per group, side by side: it loads the packages once and
# links only the binaries whose build ID changed.
build_status=0
touch "$run/build-start"
pids=()
for group in $(awk '{ print $3 }' "$run/pkgs" | sort -u); do
  # shellcheck disable=SC2046 # one argument per package
  go test -c -vet=off ${TESTBIN_LDFLAGS:-} -o "$run/$group/" $(awk -v g="$group" '$3 == g { print $1 }' "$run/pkgs") &
  pids+=("$!")
done
for pid in "${pids[@]}"; do wait "$pid" || build_status=$?; done
# go touches a binary it found up to date and replaces one it linked: one
# older than the build is a cached binary of code that failed to build.
if [ "$build_status" != 0 ]; then
  find "$run" -name '*.test' ! -newer "$run/build-start" -delete
fi

# Tests run like go test runs them: in the package directory, with the
# go command's own GOROOT/bin first in PATH; output only on failure.
export PATH="$(go env GOROOT)/bin:$PATH" TESTBIN_RUN="$run"
run_one() {
  local ip=$1 dir=$2 group=$3 base=$4 out start rc=0
  local bin="$TESTBIN_RUN/$group/$base.test"
  out=$(mktemp "$TESTBIN_RUN/out.XXXXXX")
  if [ ! -x "$bin" ]; then
    echo "FAIL	$ip [build failed]"
    return 1
  fi
  start=$(date +%s.%N)
  (cd "$dir" && timeout -k 10s 21m "$bin" -test.paniconexit0 -test.count=1 -test.parallel=4 -test.timeout=20m) </dev/null >"$out" 2>&1 || rc=$?
  local took
  took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3fs", e - s }')
  if [ "$rc" = 0 ]; then
    echo "ok  	$ip	$took"
  else
    # One write per failure, so parallel runs do not interleave it.
    { cat "$out"; echo "FAIL	$ip	$took"; } | flock "$TESTBIN_RUN" cat
    return 1
  fi
}
export -f run_one
test_status=0
xargs -a "$run/pkgs" -P 3 -L 1 bash -c 'run_one "$@"' _ || test_status=$?

# Keep this run's binaries for the next run (rename: atomic).
# A binary go left alone is the cached file already.
while read -r ip dir group base; do
  bin="$run/$group/$base.test" cached="$cache/${ip//\//+}.test"
  if [ -e "$bin" ] && [ ! "$bin" -ef "$cached" ]; then mv -f "$bin" "$cached"; fi
done <"$run/pkgs"

if [ "$build_status" != 0 ] || [ "$test_status" != 0 ]; then
  echo "FAIL"
  exit 1
fi
