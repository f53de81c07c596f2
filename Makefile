# The two commands that matter: `make run` starts the whole system on
# embedded stores; `make test` runs every test.
.PHONY: run test bench build fmt

run:
	go run ./deploy/local

test:
	./scripts/test.sh

bench:
	go run ./deploy/local/cmd/hopbench

build:
	mkdir -p bin
	go build -o bin/ ./gateway/cmd/gateway ./svc-workspace/cmd/svc-workspace ./svc-identity/cmd/svc-identity

fmt:
	gofmt -w $$(git ls-files '*.go')
