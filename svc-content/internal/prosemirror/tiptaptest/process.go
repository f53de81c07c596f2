package tiptaptest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"testing"
)

// checker is the one node process running check.mjs for a test binary:
// starting node and importing jsdom and TipTap costs about a second of CPU,
// and check.mjs loads a seed in a plain editor once per process however
// many tests send it. Tests take turns (mu); node is single-threaded, so
// turns cost no parallelism it had. Main ends it after the tests; without
// Main it ends when the test binary does (its stdin closes).
type checker struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *lockedBuffer
	err    error // sticky: once node failed, every later run fails
}

var (
	shared     *checker
	sharedOnce sync.Once
	sharedErr  error
)

// sharedChecker starts node on script the first time it is called.
func sharedChecker(script string) (*checker, error) {
	sharedOnce.Do(func() { shared, sharedErr = startChecker(script) })
	return shared, sharedErr
}

func startChecker(script string) (*checker, error) {
	cmd := exec.Command("node", script)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node %s: %w", script, err)
	}
	return &checker{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<20), stderr: stderr}, nil
}

// Main runs a package's tests, then ends node and waits for it, so that
// its CPU is counted for the test binary (time -v, rusage) and no node
// outlives the tests. Use it as: func TestMain(m *testing.M) {
// os.Exit(tiptaptest.Main(m)) }.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.stdin.Close()
		// Its exit status only repeats the failed cases the tests reported.
		_ = shared.cmd.Wait()
	}
	return code
}

// check sends lines (one case each) and returns node's n answer lines.
// It writes while it reads: node blocks on a full stdout pipe.
func (c *checker) check(lines []byte, n int) ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	written := make(chan error, 1)
	go func() {
		_, err := c.stdin.Write(lines)
		written <- err
	}()
	answers := make([][]byte, 0, n)
	for len(answers) < n {
		line, err := c.stdout.ReadBytes('\n')
		if err != nil {
			c.err = fmt.Errorf("check.mjs answered %d of %d cases: %w\nstderr: %s", len(answers), n, err, c.stderr)
			return nil, c.err
		}
		answers = append(answers, bytes.TrimSpace(line))
	}
	if err := <-written; err != nil {
		c.err = errors.Join(errors.New("write to check.mjs"), err)
		return nil, c.err
	}
	return answers, nil
}

// lockedBuffer collects node's stderr (written by exec's copier while
// tests read it for their failure messages).
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
