// Package embedded runs MongoDB- and Redis-compatible servers inside the
// process, for the one-command local run and for tests.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"

	"github.com/opencollab/backend/pkg/mongodb"
)

// readyTimeout bounds how long we wait for FerretDB to answer a ping.
const readyTimeout = 30 * time.Second

// StartFerretDB runs FerretDB v1 with its SQLite backend storing data under
// dir (one file per database) and listening on a free loopback port. It
// returns the mongodb:// URI once a client can ping it. stop shuts it down
// and waits until it has closed its files. FerretDB logs to logger, or to
// stderr at warn level when nil; its dumps of failed replies are dropped.
// Commits are synced as SyncNormal; StartFerretDBWith chooses.
func StartFerretDB(ctx context.Context, dir string, logger *slog.Logger) (uri string, stop func(), err error) {
	return StartFerretDBWith(ctx, dir, FerretOptions{Logger: logger})
}

// StartFerretDBWith is StartFerretDB with every option.
func StartFerretDBWith(ctx context.Context, dir string, o FerretOptions) (uri string, stop func(), err error) {
	pragmas, err := o.Sync.pragmas()
	if err != nil {
		return "", nil, err
	}
	logger := o.Logger
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, fmt.Errorf("embedded: ferretdb dir: %w", err)
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return "", nil, fmt.Errorf("embedded: ferretdb dir: %w", err)
	}
	if logger == nil {
		logger = quietLogger()
	}
	logger = slog.New(dropFailedResponses{lazyAttrs{base: logger.Handler()}})
	f, err := newFerretDB(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Logger:   logger,
		Handler:  "sqlite",
		// FerretDB insists on a "file:" URL naming an existing directory
		// with a trailing slash.
		SQLiteURL: "file:" + abs + "/" + pragmas,
	})
	if err != nil {
		return "", nil, fmt.Errorf("embedded: ferretdb: %w", err)
	}
	stopFerret := run(f)
	indexCtx, stopIndexer := context.WithCancel(context.Background())
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		newIDIndexer(abs, logger).run(indexCtx)
	}()
	stop = func() {
		stopIndexer()
		<-indexed
		stopFerret()
	}
	// New has already bound the listener, so the URI is known now.
	uri = f.MongoDBURI()
	if err := waitReady(ctx, uri); err != nil {
		stop()
		return "", nil, err
	}
	return uri, stop, nil
}

// newFerretDB is ferretdb.New, one at a time: New sets a package-level
// variable of FerretDB's (version.Get().Package), a data race when two
// stores start at once (parallel tests, each with its own system).
func newFerretDB(c *ferretdb.Config) (*ferretdb.FerretDB, error) {
	ferretNew.Lock()
	defer ferretNew.Unlock()
	return ferretdb.New(c)
}

var ferretNew sync.Mutex

// run starts FerretDB in a goroutine; the returned func cancels it and waits
// for Run to return so the SQLite files are closed before callers move on.
func run(f *ferretdb.FerretDB) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx) // always nil; it returns when ctx is canceled
	}()
	return func() {
		cancel()
		<-done
	}
}

func waitReady(ctx context.Context, uri string) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		client, err := mongodb.Connect(ctx, uri)
		if err == nil {
			return client.Disconnect(ctx)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("embedded: ferretdb not ready: %w", errors.Join(err, ctx.Err()))
		case <-time.After(100 * time.Millisecond):
		}
	}
}
