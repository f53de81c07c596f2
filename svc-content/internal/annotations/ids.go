package annotations

import (
	"crypto/rand"
	"strings"
)

// newID returns prefix + a random lower-case id ("ann_…", "rxn_…").
func newID(prefix string) string { return prefix + strings.ToLower(rand.Text()) }
