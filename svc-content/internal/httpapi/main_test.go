package httpapi

import (
	"os"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/prosemirror/tiptaptest"
)

// TestMain ends the tests' shared TipTap checker (one node process).
func TestMain(m *testing.M) { os.Exit(tiptaptest.Main(m)) }
