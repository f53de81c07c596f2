package check

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTrackedBytes is the largest file the repository may track: build
// outputs, binaries and data sets belong in ignored folders or are made
// by the tools that need them.
const maxTrackedBytes = 1 << 20

// executableMagic are the starts of native executables (ELF, Mach-O 32/64
// both byte orders and fat, PE).
var executableMagic = [][]byte{
	{0x7f, 'E', 'L', 'F'},
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
	{'M', 'Z'},
}

// trackedFile is one entry of `git ls-files -s`.
type trackedFile struct{ mode, path string }

func trackedFiles(t *testing.T, root string) []trackedFile {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cmd := exec.Command("git", "ls-files", "-s", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	var files []trackedFile
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		files = append(files, trackedFile{mode: strings.Fields(meta)[0], path: path})
	}
	if len(files) == 0 {
		t.Fatal("git ls-files listed nothing")
	}
	return files
}

// TestRepositoryIsClean fails on a tracked file over 1 MiB, a tracked
// native executable, or an executable-mode file that is not a script.
func TestRepositoryIsClean(t *testing.T) {
	root := repoRoot(t)
	for _, f := range trackedFiles(t, root) {
		if problem := checkTracked(filepath.Join(root, f.path), f.mode); problem != "" {
			t.Errorf("%s: %s", f.path, problem)
		}
	}
}

func checkTracked(path, mode string) string {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "" // deleted in the work tree, or a symlink
	}
	if info.Size() > maxTrackedBytes {
		return "tracked file over 1 MiB; build it on demand into an ignored folder"
	}
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := f.Read(head)
	head = head[:n]
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m) && (len(m) > 2 || isPE(path)) {
			return "tracked executable; build it into bin/ (git-ignored) instead"
		}
	}
	if mode == "100755" && !bytes.HasPrefix(head, []byte("#!")) {
		return "executable mode on a file that is not a script"
	}
	return ""
}

// isPE confirms an "MZ" start by the PE header it points to, so a text
// file starting with MZ is not taken for a Windows executable.
func isPE(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 0x40 {
		return false
	}
	off := int(b[0x3c]) | int(b[0x3d])<<8 | int(b[0x3e])<<16 | int(b[0x3f])<<24
	return off > 0 && off+4 <= len(b) && bytes.Equal(b[off:off+4], []byte("PE\x00\x00"))
}

func TestCheckTracked(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, mode string
		data       []byte
		bad        bool
	}{
		{"text", "100644", []byte("package x\n"), false},
		{"script", "100755", []byte("#!/bin/sh\necho\n"), false},
		{"elf", "100644", []byte{0x7f, 'E', 'L', 'F', 2, 1}, true},
		{"macho", "100644", []byte{0xcf, 0xfa, 0xed, 0xfe, 7}, true},
		{"exec-mode text", "100755", []byte("hello"), true},
		{"big", "100644", bytes.Repeat([]byte("a"), maxTrackedBytes+1), true},
		{"mz text", "100644", []byte("MZ is a word\n"), false},
	}
	for _, tt := range tests {
		got := checkTracked(write(tt.name, tt.data), tt.mode)
		if (got != "") != tt.bad {
			t.Errorf("%s: problem %q, want bad=%v", tt.name, got, tt.bad)
		}
	}
}
