package svccontent

import (
	"fmt"

	"github.com/opencollab/backend/svc-content/internal/crdt"
)

// CRDTConfig are the limits of CRDT editor data (README, "CRDT storage").
type CRDTConfig struct {
	// MaxDocumentBytes bounds an editor's stored Yjs data (state plus
	// log); a write past it is INVALID_ARGUMENT.
	MaxDocumentBytes int64 `env:"CRDT_MAX_DOCUMENT_BYTES, default=10485760"`
	// CompactEntries and CompactBytes: a log of CompactBytes, or of
	// CompactEntries updates once it is as large as the editor's state
	// (or of four times CompactEntries), is merged into the state in the
	// background.
	CompactEntries int   `env:"CRDT_COMPACT_ENTRIES, default=64"`
	CompactBytes   int64 `env:"CRDT_COMPACT_BYTES, default=1048576"`
}

func (c CRDTConfig) settings() crdt.Settings {
	return crdt.Settings{MaxDocumentBytes: c.MaxDocumentBytes, CompactEntries: c.CompactEntries, CompactBytes: c.CompactBytes}
}

// Validate refuses negative limits (0 takes the default).
func (c CRDTConfig) Validate() error {
	if c.MaxDocumentBytes < 0 || c.CompactEntries < 0 || c.CompactBytes < 0 {
		return fmt.Errorf("CRDT_MAX_DOCUMENT_BYTES, CRDT_COMPACT_ENTRIES and CRDT_COMPACT_BYTES must not be negative")
	}
	return nil
}
