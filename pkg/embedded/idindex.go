package embedded

import (
	"context"
	"database/sql"
	"errors"
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
// _ferretdb_sjson->'$._id', but indexes _id (its unique index "_id_", the
// SQL index <table>__id_) on _ferretdb_sjson->"_id". SQLite uses an
// expression index only for the identical expression, so every lookup by
// _id scanned its table: a write by _id cost 7 ms at 200 documents and
// 111 ms at 2 000. idIndexer rebuilds, beside FerretDB, that unique index
// of every collection table on the expression FerretDB's queries use,
// under the same name: the same values (SQLite reads a label without "$."
// as "$.label"), the same uniqueness (a duplicate _id still fails the
// insert as SQLITE_CONSTRAINT_UNIQUE, which FerretDB reports as a
// duplicate key), and lookups by _id are index seeks. FerretDB keeps its
// indexes in its own metadata and never reads their SQL back, so it does
// not notice. Earlier versions added a second index instead (suffix
// _oc_id), which cost every write of every collection a second index
// entry; a sweep drops it.
type idIndexer struct {
	dir    string
	logger *slog.Logger
	seen   map[string]time.Time // database file -> newest mtime swept
}

// idIndexSweep is how often new collection tables are looked for. A
// collection created in between is served by scans until the next sweep.
const idIndexSweep = time.Second

// ferretIDIndexSuffix names FerretDB's unique _id index (table name +
// "_" + the index name "_id_").
const ferretIDIndexSuffix = "__id_"

// oldIDIndexSuffix named the second index earlier versions added.
const oldIDIndexSuffix = "_oc_id"

// queryIDExpr is the expression FerretDB filters _id on
// (metadata.IDColumn).
const queryIDExpr = `_ferretdb_sjson->'$._id'`

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
			if ctx.Err() == nil && !os.IsNotExist(err) && !errors.Is(err, errIncomplete) {
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

// indexIDs rebuilds the _id indexes of one database's collection tables
// on the expression FerretDB queries. A table whose index FerretDB has
// not created yet (a collection being created) is left to a later sweep:
// errIncomplete.
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
	tables, err := idIndexStates(ctx, db)
	if err != nil {
		return err
	}
	incomplete := false
	for _, t := range tables {
		switch {
		case !t.ferretIndex:
			incomplete = true
		case !t.onQueryExpr || t.oldIndex:
			if err := rebuildIDIndex(ctx, db, t); err != nil && !strings.Contains(err.Error(), "no such") {
				return fmt.Errorf("index %s: %w", t.name, err)
			}
		}
	}
	if incomplete {
		return errIncomplete
	}
	return nil
}

// errIncomplete: a table still lacks FerretDB's own _id index.
var errIncomplete = errors.New("embedded: a collection table has no _id index yet")

// tableIDIndexes is what a collection table has of _id indexes.
type tableIDIndexes struct {
	name        string
	ferretIndex bool // <table>__id_ exists
	onQueryExpr bool // ... and is on queryIDExpr
	oldIndex    bool // <table>_oc_id exists
}

// rebuildIDIndex replaces t's unique _id index by one of the same name on
// queryIDExpr and drops the old second index, in one transaction: no
// write of FerretDB lands between without a unique _id index.
func rebuildIDIndex(ctx context.Context, db *sql.DB, t tableIDIndexes) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit: nothing to undo
	name := t.name + ferretIDIndexSuffix
	stmts := []string{fmt.Sprintf(`DROP INDEX IF EXISTS %q`, t.name+oldIDIndexSuffix)}
	if !t.onQueryExpr {
		stmts = append(stmts,
			fmt.Sprintf(`DROP INDEX %q`, name),
			fmt.Sprintf(`CREATE UNIQUE INDEX %q ON %q (%s)`, name, t.name, queryIDExpr))
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// idIndexStates lists the collection tables (not FerretDB's own) with
// their _id indexes.
func idIndexStates(ctx context.Context, db *sql.DB) ([]tableIDIndexes, error) {
	rows, err := db.QueryContext(ctx, `
		SELECT t.name,
		       f.name IS NOT NULL,
		       COALESCE(instr(f.sql, ?), 0) > 0,
		       o.name IS NOT NULL
		FROM sqlite_master t
		LEFT JOIN sqlite_master f ON f.type = 'index' AND f.name = t.name || ?
		LEFT JOIN sqlite_master o ON o.type = 'index' AND o.name = t.name || ?
		WHERE t.type = 'table' AND t.name NOT LIKE '\_ferretdb\_%' ESCAPE '\'`,
		queryIDExpr, ferretIDIndexSuffix, oldIDIndexSuffix)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tableIDIndexes
	for rows.Next() {
		var t tableIDIndexes
		if err := rows.Scan(&t.name, &t.ferretIndex, &t.onQueryExpr, &t.oldIndex); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
