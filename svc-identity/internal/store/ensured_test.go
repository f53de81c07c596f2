package store_test

import (
	"context"
	"testing"
)

// ensured runs an EnsureIndexes, failing t on an error.
func ensured(t *testing.T, ensure func(context.Context) error) {
	t.Helper()
	if err := ensure(t.Context()); err != nil {
		t.Fatal(err)
	}
}
