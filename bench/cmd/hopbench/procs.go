package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// proc is a process of the stack under test, with the pids whose CPU it is
// charged (nginx: master and workers).
type proc struct {
	name  string
	cmd   *exec.Cmd
	pids  []int
	addr  string // where it serves
	pprof string // its profiling address, "-" when off
}

// startRole starts this binary with -role role and waits for the address
// line. Its stderr goes to dir/<role>.log.
func startRole(dir, role string, args []string, env []string) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return startRoleOf(self, role, dir, role, args, env)
}

// startRoleOf starts exe, a hopbench binary (this one or another build),
// with -role role; its stderr goes to dir/<name>.log.
func startRoleOf(exe, name, dir, role string, args []string, env []string) (*proc, error) {
	logf, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child keeps its own descriptor
	cmd := exec.Command(exe, append([]string{"-role", role}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = logf
	cmd.SysProcAttr = childAttr()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{name: role, cmd: cmd, pids: []int{cmd.Process.Pid}}
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
		for s.Scan() { // keep the pipe drained
		}
	}()
	select {
	case l, ok := <-line:
		if f := strings.Fields(l); ok && len(f) == 2 {
			p.addr, p.pprof = f[0], f[1]
			return p, nil
		}
	case <-time.After(30 * time.Second):
	}
	p.stop()
	return nil, fmt.Errorf("%s did not start; see %s", role, logf.Name())
}

// stop asks the process to shut down (SIGTERM) and waits for it.
func (p *proc) stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// cpu is the user+system CPU time of the process's pids so far.
func (p *proc) cpu() time.Duration {
	var total time.Duration
	for _, pid := range p.pids {
		total += pidCPU(pid)
	}
	return total
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat times (100 on Linux).
const clockTick = 10 * time.Millisecond

func pidCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) start after ')'.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * clockTick
}

// childrenOf lists the pids whose parent is pid.
func childrenOf(pid int) []int {
	var kids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if f := strings.Fields(string(b[i+1:])); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			kids = append(kids, child)
		}
	}
	return kids
}

// errNoNginx: nginx is not installed; the nginx rows are skipped.
var errNoNginx = errors.New("nginx not found (Debian/Ubuntu: apt-get install -y nginx-light); its rows are skipped")

// startNginx runs nginx in the foreground as a keep-alive reverse proxy to
// upstream, configured as one would in production for an HTTP/1.1 upstream
// (pooled upstream connections, no access log: the gateway logs none at
// info either), with one worker per core unless cores > 0. Like the
// gateway and our services it keeps a connection open for any number of
// requests: nginx's default closes each after 1000 (keepalive_requests,
// client and upstream side), which ended a long fixed-rate run with EOF
// and made the throughput runs reconnect.
func startNginx(dir, upstream string, cores int) (*proc, error) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		return nil, errNoNginx
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	ndir := filepath.Join(dir, "nginx")
	if err := os.MkdirAll(ndir, 0o755); err != nil {
		return nil, err
	}
	workers := "auto"
	if cores > 0 {
		workers = strconv.Itoa(cores)
	}
	conf := fmt.Sprintf(nginxConf, workers, ndir, ndir, ndir, ndir, upstream, port)
	if err := os.WriteFile(filepath.Join(ndir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", ndir, "-c", filepath.Join(ndir, "nginx.conf"))
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{name: "nginx", cmd: cmd, addr: fmt.Sprintf("127.0.0.1:%d", port), pprof: "-"}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if kids := childrenOf(cmd.Process.Pid); len(kids) > 0 && dialable(p.addr) {
			p.pids = append([]int{cmd.Process.Pid}, kids...)
			return p, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.stop()
	return nil, fmt.Errorf("nginx did not start; see %s/error.log", ndir)
}

const nginxConf = `daemon off;
master_process on;
worker_processes %s;
pid %s/nginx.pid;
error_log %s/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000000;
  client_body_temp_path %s/body;
  proxy_temp_path %s/proxy;
  upstream svc { server %s; keepalive 256; keepalive_requests 1000000000; }
  server {
    listen 127.0.0.1:%d;
    location / {
      proxy_pass http://svc;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`
