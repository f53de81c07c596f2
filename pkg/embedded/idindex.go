package embedded

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver FerretDB's SQLite backend uses
)

// FerretDB v1.24's SQLite backend filters {_id: v} (queries, and the
// UPDATE and DELETE every write ends with) on the expression
// _ferretdb_sjson->'$._id', but indexes _id on _ferretdb_sjson->"_id".
// SQLite uses an expression index only for the identical expression, so
// every lookup by _id scanned its table: a write by _id cost 7 ms at 200
// documents and 111 ms at 2 000. idIndexer adds, beside FerretDB, an index
// on the expression its queries use to every collection table, so those
// lookups are index seeks. FerretDB does not know the index (it is not
// listed by listIndexes); it is dropped with its table.
type idIndexer struct {
	dir    string
	logger *slog.Logger
	seen   map[string]time.Time // database file -> newest mtime swept
}

// idIndexSweep is how often new collection tables are looked for. A
// collection created in between is served by scans until the next sweep.
const idIndexSweep = time.Second

// idIndexSuffix names our indexes (table name + suffix).
const idIndexSuffix = "_oc_id"

func newIDIndexer(dir string, logger *slog.Logger) *idIndexer {
	return &idIndexer{dir: dir, logger: logger, seen: map[string]time.Time{}}
}

// run sweeps until ctx ends.
func (x *idIndexer) run(ctx context.Context) {
	t := time.NewTicker(idIndexSweep)
	defer t.Stop()
	for {
		x.sweep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweep indexes the tables of every database file written since the last
// sweep (the file or its write-ahead log is newer).
func (x *idIndexer) sweep(ctx context.Context) {
	files, err := filepath.Glob(filepath.Join(x.dir, "*.sqlite"))
	if err != nil {
		return
	}
	for _, f := range files {
		mtime := newestMtime(f, f+"-wal")
		if mtime.IsZero() || !mtime.After(x.seen[f]) {
			continue
		}
		if err := indexIDs(ctx, f); err != nil {
			if ctx.Err() == nil && !os.IsNotExist(err) {
				x.logger.WarnContext(ctx, "embedded: indexing _id failed; lookups scan meanwhile", "file", f, "error", err)
			}
			continue
		}
		x.seen[f] = mtime
	}
}

func newestMtime(paths ...string) time.Time {
	var newest time.Time
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.ModTime().After(newest) {
			newest = st.ModTime()
		}
	}
	return newest
}

// indexIDs creates the missing _id expression indexes of one database.
func indexIDs(ctx context.Context, file string) error {
	if _, err := os.Stat(file); err != nil {
		return err
	}
	// mode=rw: never create a file FerretDB has just dropped.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	tables, err := unindexedTables(ctx, db)
	if err != nil {
		return err
	}
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, t+idIndexSuffix, t)
		if _, err := db.ExecContext(ctx, q); err != nil && !strings.Contains(err.Error(), "no such table") {
			return fmt.Errorf("index %s: %w", t, err)
		}
	}
	return nil
}

// unindexedTables lists the collection tables (not FerretDB's own) that
// lack our index.
func unindexedTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `
		SELECT name FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE '\_ferretdb\_%' ESCAPE '\'
		  AND name || ? NOT IN (SELECT name FROM sqlite_master WHERE type = 'index')`, idIndexSuffix)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}
