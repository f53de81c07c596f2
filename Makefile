# The two commands that matter: `make run` starts the whole system on
# embedded stores; `make test` runs every test.
.PHONY: run test bench build fmt crashtest outagetest

run:
	go run ./deploy/local

test:
	./scripts/test.sh

bench:
	go run ./deploy/local/cmd/hopbench

# Reliability (README "Reliability"): kill -9 of deploy/local under load in
# both modes, counting acknowledged vs delivered events; and Redis stopped
# under load (a redis-server of the test's own), counting 5xx.
crashtest:
	mkdir -p bin
	go build -o bin/local ./deploy/local
	go run ./deploy/local/cmd/crashtest -bin bin/local

outagetest:
	mkdir -p bin
	go build -o bin/local ./deploy/local
	go run ./deploy/local/cmd/outagetest -bin bin/local

build:
	mkdir -p bin
	go build -o bin/ ./gateway/cmd/gateway ./svc-workspace/cmd/svc-workspace ./svc-identity/cmd/svc-identity

fmt:
	gofmt -w $$(git ls-files '*.go')
