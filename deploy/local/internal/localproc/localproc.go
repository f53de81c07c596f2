// Package localproc runs `deploy/local` as a child process, as an operator
// runs it, for the reliability tools that kill it (crashtest) or take its
// Redis away (outagetest), and calls its gateway with the bootstrap
// credentials it was given.
package localproc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Fixed bootstrap credentials: the tools must know them before the first
// start, and the data directory keeps them across restarts.
const (
	APIKey    = "reliability-key"
	AuthToken = "reliability-token-0123456789abcdef"
)

// Proc is one running deploy/local.
type Proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	URL  string // gateway, http://127.0.0.1:<port>
}

// Options say how to start it.
type Options struct {
	Bin      string   // the built deploy/local binary
	DataDir  string   // kept across restarts
	Addr     string   // gateway address, the same on restart; "" for a port of the kernel's choosing
	RedisURL string   // "" for the in-process Redis
	Env      []string // more settings
	Log      string   // file its stderr is appended to
}

// FreeAddr returns a loopback address nobody listens on now.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Workspace makes a temporary folder for a tool's runs and, when bin is
// empty, builds deploy/local into it. cleanup removes the folder.
func Workspace(ctx context.Context, name, bin string) (work, binary string, cleanup func(), err error) {
	work, err = os.MkdirTemp("", name)
	if err != nil {
		return "", "", nil, err
	}
	cleanup = func() { _ = os.RemoveAll(work) }
	if bin == "" {
		fmt.Fprintln(os.Stderr, "building deploy/local")
		if bin, err = build(ctx, work); err != nil {
			cleanup()
			return "", "", nil, err
		}
	}
	return work, bin, cleanup, nil
}

// BinEnv names an environment variable holding a deploy/local binary built
// already: scripts/test.sh builds one before `go test` for every test that
// runs the system as a process, so no test links its own copy while the
// other test binaries are compiling. Unset, each test builds one.
const BinEnv = "TEST_LOCAL_BIN"

// Binary returns the binary BinEnv names, or builds deploy/local into dir.
func Binary(ctx context.Context, dir string) (string, error) {
	if bin := os.Getenv(BinEnv); bin != "" {
		return bin, nil
	}
	return build(ctx, dir)
}

// build compiles deploy/local (the module of the caller's working tree)
// into dir and returns the binary's path.
func build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "local")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/opencollab/backend/deploy/local")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build deploy/local: %w", err)
	}
	return bin, nil
}

// Start starts the binary and waits until its gateway answers an API call.
// The gateway's URL is the one the process's banner gives: another
// process's gateway on the address cannot pass for this one (with Addr ""
// none can even take the port between its pick and the bind).
func Start(ctx context.Context, o Options) (*Proc, error) {
	logf, err := os.OpenFile(o.Log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child keeps its own descriptor
	addr := o.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	cmd := exec.Command(o.Bin)
	cmd.Env = append(os.Environ(),
		"DATA_DIR="+o.DataDir, "GATEWAY_ADDR="+addr, "REDIS_URL="+o.RedisURL, "LOG_LEVEL=warn",
		"BOOTSTRAP_API_KEY="+APIKey, "BOOTSTRAP_AUTH_TOKEN="+AuthToken, "RATE_LIMIT_PER_SECOND=0",
		"WEBHOOK_ALLOW_PRIVATE_TARGETS=true", "OTEL_SDK_DISABLED=true",
		// A port of its own: the default :9090 may be another process's
		// (a developer's `make run`, another test's system).
		"METRICS_ADDR=127.0.0.1:0")
	cmd.Env = append(cmd.Env, o.Env...)
	banner := &bannerURL{found: make(chan string, 1)}
	cmd.Stdout, cmd.Stderr = banner, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Proc{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(3 * time.Minute)
	// One client for every probe, made once the banner gives the URL: a
	// client per probe would leave a transport with an idle connection
	// behind each of them.
	var c *Client
	defer func() {
		if c != nil {
			c.hc.CloseIdleConnections()
		}
	}()
	for {
		if c == nil {
			select {
			case p.URL = <-banner.found:
				c = NewClient(p.URL, 5*time.Second)
			default:
			}
		}
		if c != nil {
			code, _, err := c.Post(ctx, "/v2/workspace/advancedwebhookconfig/get", map[string]any{})
			if err == nil && code == http.StatusOK {
				return p, nil
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("deploy/local exited during start (%v); its log ends:\n%s", p.cmd.ProcessState, logTail(o.Log))
		case <-ctx.Done():
			p.Kill()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.Kill()
			return nil, fmt.Errorf("deploy/local not ready after 3 minutes; see %s", o.Log)
		}
	}
}

// bannerURL takes the process's stdout and sends the URL of its banner's
// "gateway <url>" line once. Only exec's copy of stdout calls Write.
type bannerURL struct {
	line  []byte // output not yet ended by a newline
	found chan string
	sent  bool
}

func (b *bannerURL) Write(p []byte) (int, error) {
	if b.sent {
		return len(p), nil
	}
	b.line = append(b.line, p...)
	for {
		end := bytes.IndexByte(b.line, '\n')
		if end < 0 {
			return len(p), nil
		}
		f := strings.Fields(string(b.line[:end]))
		b.line = b.line[end+1:]
		if len(f) == 2 && f[0] == "gateway" && strings.HasPrefix(f[1], "http://") {
			b.found <- f[1]
			b.sent, b.line = true, nil
			return len(p), nil
		}
	}
}

// Kill sends SIGKILL — no shutdown code runs — and waits for the exit.
func (p *Proc) Kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop asks for a clean shutdown (SIGTERM) and waits, killing after 30 s.
func (p *Proc) Stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.Kill()
	}
}

// Client posts API calls to a gateway with the bootstrap credentials.
type Client struct {
	hc  *http.Client
	url string
}

// NewClient returns a client of the gateway at url.
func NewClient(url string, timeout time.Duration) *Client {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}
	return &Client{hc: &http.Client{Transport: tr, Timeout: timeout}, url: url}
}

// Reply is what one call answered.
type Reply struct {
	Result     json.RawMessage `json:"result"`
	RetryAfter string          `json:"-"`
}

// Post sends {"data": data} to path and returns the HTTP status and the
// decoded reply; err only when no HTTP answer came.
func (c *Client) Post(ctx context.Context, path string, data any) (int, Reply, error) {
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return 0, Reply{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+path, bytes.NewReader(body))
	if err != nil {
		return 0, Reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-svc-api-key", APIKey)
	req.Header.Set("x-svc-auth-token", AuthToken)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, Reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, Reply{}, err
	}
	var r Reply
	_ = json.Unmarshal(b, &r)
	r.RetryAfter = resp.Header.Get("Retry-After")
	return resp.StatusCode, r, nil
}

// logTail is the end of a log file, for an error the tool's cleanup would
// otherwise delete the evidence of.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	const keep = 3000
	if len(b) > keep {
		b = b[len(b)-keep:]
	}
	return string(b)
}

// Memory is the process's resident memory now (VmRSS) and its peak
// (VmHWM) since it started or since the last ResetPeak, in bytes.
func (p *Proc) Memory() (rss, peak int64, err error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		name, value, _ := strings.Cut(line, ":")
		kb, convErr := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch {
		case name != "VmRSS" && name != "VmHWM":
		case convErr != nil:
			return 0, 0, fmt.Errorf("%s of /proc/%d/status: %w", name, p.cmd.Process.Pid, convErr)
		case name == "VmRSS":
			rss = kb * 1024
		default:
			peak = kb * 1024
		}
	}
	return rss, peak, nil
}

// ResetPeak sets the process's peak resident memory (VmHWM) to what it
// holds now (Linux: 5 written to /proc/<pid>/clear_refs), so Memory then
// reports the peak of what runs from here on.
func (p *Proc) ResetPeak() error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p.cmd.Process.Pid), []byte("5"), 0)
}
