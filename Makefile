# The two commands that matter: `make run` starts the whole system on
# embedded stores; `make test` runs every test. Everything built goes to
# bin/ (git-ignored).
.PHONY: run test bench build images benchtools settings api-surface fmt crashtest outagetest batchtest

SERVICES := gateway svc-workspace svc-identity svc-activity svc-notify svc-content svc-memory
BENCHTOOLS := contentbench hopbench memorybench realtimebench webhookbench

# Built first and run directly: Ctrl-C reaches the stack alone, which stops
# cleanly and exits 0 (deploy/local/foreground.go).
run:
	@mkdir -p bin
	go build -o bin/collab-local ./deploy/local
	@./bin/collab-local

test:
	./scripts/test.sh

bench: benchtools
	./bin/hopbench

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

batchtest:
	mkdir -p bin
	go build -o bin/local ./deploy/local
	go run ./deploy/local/cmd/batchtest -bin bin/local

# Every service binary, static, into bin/.
build:
	@mkdir -p bin
	CGO_ENABLED=0 go build -trimpath -o bin/ $(foreach s,$(SERVICES),./$(s)/cmd/$(s))

# One OCI image per service, without a container engine, into bin/images/
# as OCI layout tarballs tagged opencollab/<service>:v<VERSION>.
images:
	go run ./deploy/local/cmd/images -out bin/images $(SERVICES)

# The benchmark tools (the bench module), built on demand.
benchtools:
	@mkdir -p bin
	go build -o bin/ $(foreach b,$(BENCHTOOLS),./bench/cmd/$(b))

# Regenerates docs/settings.md from the services' config structs.
settings:
	go run ./deploy/local/cmd/settingsdoc > docs/settings.md

# Records each service's routes next to its VERSION (after a version bump).
api-surface:
	go run ./deploy/local/cmd/apisurface

fmt:
	gofmt -w $$(git ls-files '*.go')
