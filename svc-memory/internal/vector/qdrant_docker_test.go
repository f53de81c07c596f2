package vector_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// qdrantImage pins the server the adapter is tested against (the go-client
// v1.15 line).
const qdrantImage = "qdrant/qdrant:v1.15.1"

// The contract against a real Qdrant: QDRANT_TEST_ADDR (host:port of a
// running server's gRPC API) when set, else a container when Docker
// answers; skipped otherwise.
func TestQdrantContractReal(t *testing.T) {
	t.Parallel()
	addr := os.Getenv("QDRANT_TEST_ADDR")
	if addr == "" {
		if testing.Short() {
			t.Skip("short mode: no Qdrant container")
		}
		if err := dockerAvailable(); err != nil {
			t.Skipf("Docker unavailable, real-Qdrant contract skipped: %v", err)
		}
		addr = startQdrant(t)
	}
	runContract(t, newQdrantAt(addr))
}

func startQdrant(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := testcontainers.Run(ctx, qdrantImage,
		testcontainers.WithExposedPorts("6334/tcp"),
		testcontainers.WithWaitStrategy(wait.ForListeningPort("6334/tcp")),
	)
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatalf("qdrant container: %v", err)
	}
	addr, err := c.PortEndpoint(ctx, "6334/tcp", "")
	if err != nil {
		t.Fatalf("qdrant container: %v", err)
	}
	return addr
}

var (
	dockerOnce sync.Once
	dockerErr  error
)

// dockerAvailable probes the engine once, quickly, as pkg/testenv does:
// testcontainers may panic in host detection, which also means "no".
func dockerAvailable() error {
	dockerOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				dockerErr = fmt.Errorf("testcontainers panicked: %v", r)
			}
		}()
		p, err := testcontainers.ProviderDocker.GetProvider()
		if err != nil {
			dockerErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		dockerErr = p.Health(ctx)
	})
	return dockerErr
}
