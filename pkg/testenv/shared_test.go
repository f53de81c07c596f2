package testenv

import (
	"os"
	"slices"
	"testing"
)

func TestProcessTBCleansUpInReverse(t *testing.T) {
	t.Parallel()
	p := &processTB{}
	var order []int
	dir := p.TempDir()
	p.Cleanup(func() { order = append(order, 1) })
	p.Cleanup(func() { order = append(order, 2) })
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("temp dir missing before cleanup: %v", err)
	}
	p.runCleanups()
	if !slices.Equal(order, []int{2, 1}) {
		t.Fatalf("cleanup order %v, want [2 1]", order)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("temp dir %s still there after cleanup (%v)", dir, err)
	}
}

func TestProcessTBFatalPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("Fatalf returned; a fixture that failed to start must stop the binary")
		}
	}()
	(&processTB{}).Fatalf("boom %d", 1)
}
