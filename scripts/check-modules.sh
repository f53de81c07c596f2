#!/usr/bin/env bash
# Proves every service module (and pkg, the gateway and the bench tools)
# builds and type-checks with its tests on its own, outside the Go
# workspace: what a team releasing one service runs. `go vet` compiles
# every package and test file of the module with the versions its own
# go.mod selects; the tests themselves run once, in the workspace, from
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(pkg gateway bench svc-activity svc-content svc-identity svc-memory svc-notify svc-workspace)
for m in "${modules[@]}"; do
  echo "GOWORK=off go vet ./... in $m"
  (cd "$m" && GOWORK=off go vet ./...)
done
