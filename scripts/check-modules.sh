#!/usr/bin/env bash
# Proves every module of the workspace (pkg, the gateway, the services,
# deploy/local, deploy/check and the bench tools; the list is go.work's, so
# a module added there is checked too) builds and type-checks with its
# tests on its own, outside the Go workspace: what a team releasing one
# service runs. `go list -export -test` compiles every package and test
# file of the module (export data, no linking) with the versions its own
# go.mod selects, and fails when that go.mod is incomplete (GOWORK=off
# builds are -mod=readonly) or a package or test file does not compile;
# the tests themselves run once, in the workspace, from scripts/test.sh,
# and so does go vet's analysis (an earlier version of this script ran
# go vet here, which analysed every package a second time to prove the
# same build).
#
# The modules' go.mod files require the versions the workspace selects
# (`go work sync`, then `GOWORK=off go mod tidy` in each), so these builds
# compile the same packages as the workspace's and find them in the build
# cache (and the test packages compiled here are the ones go test links
# next); a module whose versions drift still passes, it only compiles its
# drifted dependencies (and everything above them) a second time.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t modules < <(go list -m -f '{{.Dir}}' | sed "s|^$PWD/||")
for m in "${modules[@]}"; do
  echo "GOWORK=off go list -export -test ./... in $m"
  (cd "$m" && GOWORK=off go list -export -test ./... >/dev/null)
done
