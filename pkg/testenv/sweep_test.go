package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func TestSweepStaleDirs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.TempDir reads it on Unix
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skipf("cannot make a dead pid: %v", err)
	}
	tests := []struct {
		name     string
		dir      string
		wantKept bool
	}{
		{"live process", ferretDirPrefix + strconv.Itoa(os.Getpid()) + "-1", true},
		{"dead process", ferretDirPrefix + strconv.Itoa(dead.Process.Pid) + "-2", false},
		{"no pid", ferretDirPrefix + "abc-3", true},
		{"unrelated", "other-" + strconv.Itoa(dead.Process.Pid) + "-4", true},
	}
	for _, tt := range tests {
		if err := os.Mkdir(filepath.Join(tmp, tt.dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweepStaleDirs()
	for _, tt := range tests {
		_, err := os.Stat(filepath.Join(tmp, tt.dir))
		if kept := err == nil; kept != tt.wantKept {
			t.Errorf("%s: kept = %v, want %v", tt.name, kept, tt.wantKept)
		}
	}
}
