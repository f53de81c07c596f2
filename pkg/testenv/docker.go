package testenv

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/testcontainers/testcontainers-go"
)

// dockerProbeTimeout keeps the probe cheap on machines with a docker client
// but no engine: we would rather fall back than stall every test binary.
const dockerProbeTimeout = 3 * time.Second

var (
	dockerOnce sync.Once
	dockerOK   bool
)

// dockerAvailable reports, once per process, whether testcontainers can
// reach a Docker engine.
func dockerAvailable() bool {
	dockerOnce.Do(func() {
		if os.Getenv(EnvNoDocker) == "1" {
			return
		}
		err := probeDocker()
		dockerOK = err == nil
		if err != nil {
			slog.Debug("testenv: docker unavailable", "err", err)
		}
	})
	return dockerOK
}

func probeDocker() (err error) {
	// testcontainers panics in some host-detection paths; treat that as
	// "no Docker" like its own SkipIfProviderIsNotHealthy does.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("testcontainers panicked: %v", r)
		}
	}()
	p, err := testcontainers.ProviderDocker.GetProvider()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), dockerProbeTimeout)
	defer cancel()
	return p.Health(ctx) // Health also closes the provider
}
