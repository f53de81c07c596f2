package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcmongo "github.com/testcontainers/testcontainers-go/modules/mongodb"

	"github.com/opencollab/backend/pkg/embedded"
)

const (
	mongoImage      = "mongo:7"
	containerBudget = 3 * time.Minute // includes a first image pull
	ferretDirPrefix = "testenv-ferretdb-"
)

func startMongoContainer() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), containerBudget)
	defer cancel()
	c, err := tcmongo.Run(ctx, mongoImage)
	if c != nil {
		atShutdown(func() { _ = testcontainers.TerminateContainer(c) })
	}
	if err != nil {
		return "", fmt.Errorf("mongodb container: %w", err)
	}
	return c.ConnectionString(ctx)
}

// startFerretDB runs FerretDB for the whole process in a temp dir whose
// name carries our pid, so a later run can tell it is stale if we never get
// to Shutdown (no TestMain, a test timeout, a kill).
func startFerretDB() (string, error) {
	sweepStaleDirs()
	dir, err := os.MkdirTemp("", ferretDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	uri, stop, err := embedded.StartFerretDB(context.Background(), dir, nil)
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	atShutdown(func() {
		stop()
		_ = os.RemoveAll(dir)
	})
	return uri, nil
}

// sweepStaleDirs removes FerretDB dirs left by test processes that are gone.
func sweepStaleDirs() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), ferretDirPrefix+"*"))
	for _, dir := range matches {
		rest := strings.TrimPrefix(filepath.Base(dir), ferretDirPrefix)
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || processAlive(pid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	err = p.Signal(syscall.Signal(0))
	return !errors.Is(err, os.ErrProcessDone)
}
