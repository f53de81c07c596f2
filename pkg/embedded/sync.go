package embedded

import (
	"fmt"
	"log/slog"
)

// Sync says when SQLite waits for the disk. FerretDB opens every database
// in WAL mode and leaves SQLite's synchronous=FULL, which fsyncs the WAL on
// every commit; FerretDB v1 commits each document of an insert or update
// command on its own, so a batch of 1,000 documents is 1,000 fsyncs.
type Sync string

const (
	// SyncNormal (synchronous=NORMAL) fsyncs only at checkpoints. A commit
	// is in the WAL file (the OS cache) before it is acknowledged, so it
	// survives the process being killed (kill -9, OOM); an OS crash or
	// power loss may lose the last commits, never corrupt the database.
	SyncNormal Sync = "normal"
	// SyncFull (synchronous=FULL, SQLite's default) fsyncs every commit:
	// an acknowledged write also survives an OS crash or power loss.
	SyncFull Sync = "full"
)

// FerretOptions configure StartFerretDBWith.
type FerretOptions struct {
	// Logger receives FerretDB's logs; nil: stderr at warn level.
	Logger *slog.Logger
	// Sync is the commit durability; empty means SyncNormal.
	Sync Sync
}

// pragmas is the query of FerretDB's SQLite URL that sets s. FerretDB
// passes _pragma values through to every connection it opens and adds its
// own (busy timeout, WAL) after them. temp_store(memory) keeps statement
// journals in memory: FerretDB runs each insert or update command as one
// statement in a transaction, whose journal (the pages it changed, kept
// to undo the statement alone) otherwise spills to a temporary file,
// written and thrown away on every larger command. Durability is the
// WAL's, which it leaves alone.
func (s Sync) pragmas() (string, error) {
	const memoryJournals = "&_pragma=temp_store(memory)"
	switch s {
	case "", SyncNormal:
		return "?_pragma=synchronous(normal)" + memoryJournals, nil
	case SyncFull:
		return "?_pragma=synchronous(full)" + memoryJournals, nil
	}
	return "", fmt.Errorf("embedded: sync %q: want %q or %q", string(s), SyncNormal, SyncFull)
}
