#!/usr/bin/env bash
# Proves every module of the workspace (pkg, the gateway, the services,
# deploy/local, deploy/check and the bench tools; the list is go.work's, so
# a module added there is checked too) builds and type-checks with its
# tests on its own, outside the Go workspace: what a team releasing one
# service runs. `go vet` compiles every package and test file of the module
# with the versions its own go.mod selects, and fails when that go.mod is
# incomplete (GOWORK=off builds are -mod=readonly); the tests themselves run
# once, in the workspace, from scripts/test.sh.
#
# The modules' go.mod files require the versions the workspace selects
# (`go work sync`, then `GOWORK=off go mod tidy` in each), so these builds
# compile the same packages as the workspace's and find them in the build
# cache; a module whose versions drift still passes, it only compiles its
# drifted dependencies (and everything above them) a second time.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t modules < <(go list -m -f '{{.Dir}}' | sed "s|^$PWD/||")
for m in "${modules[@]}"; do
  echo "GOWORK=off go vet ./... in $m"
  (cd "$m" && GOWORK=off go vet ./...)
done
