package testenv

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

const redisStartTimeout = 10 * time.Second

// startRedisServer runs a dedicated redis-server for t with persistence off.
// The port is picked by binding :0 and releasing it, which can race with
// another process, so a failed start is retried on a new port.
func startRedisServer(t testing.TB, bin string) string {
	t.Helper()
	var lastErr error
	for range 3 {
		addr, err := freeAddr()
		if err != nil {
			t.Fatalf("testenv: free port: %v", err)
		}
		if lastErr = spawnRedis(t, bin, addr); lastErr == nil {
			return "redis://" + addr
		}
	}
	t.Fatalf("testenv: redis-server: %v", lastErr)
	return ""
}

func spawnRedis(t testing.TB, bin, addr string) error {
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "--save", "", "--appendonly", "no",
		"--port", port, "--bind", "127.0.0.1", "--dir", t.TempDir(), "--loglevel", "warning")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	setParentDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	kill := func() { _ = cmd.Process.Kill(); <-exited }
	if err := waitPong(addr, exited); err != nil {
		kill()
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(out.Bytes()))
	}
	t.Cleanup(kill)
	return nil
}

// waitPong polls until the server answers PING, or gives up if it exited.
func waitPong(addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(redisStartTimeout)
	for time.Now().Before(deadline) {
		if ping(addr) == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server on %s exited", addr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("redis-server on %s did not answer PING", addr)
}

func ping(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("unexpected reply %q", line)
	}
	return nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}
