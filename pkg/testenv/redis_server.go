package testenv

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
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
	if err := waitOwnAnswer(addr, cmd.Process.Pid, exited); err != nil {
		kill()
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(out.Bytes()))
	}
	t.Cleanup(kill)
	return nil
}

// waitOwnAnswer polls until the server answers, or gives up if it exited. The
// answer must come from the process started (INFO's process_id): the port
// was free when picked, but another test's server may have bound it
// since, and then ours exits on the taken port while the other answers;
// taken for ours, it vanished with its own test (EOF, then refused).
func waitOwnAnswer(addr string, pid int, exited <-chan struct{}) error {
	deadline := time.Now().Add(redisStartTimeout)
	for time.Now().Before(deadline) {
		if got, err := serverPID(addr); err == nil {
			if got != pid {
				return fmt.Errorf("another server (pid %d) answers on %s", got, addr)
			}
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server on %s exited", addr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("redis-server on %s did not answer", addr)
}

// serverPID asks the Redis server on addr for its process id (0 when its
// INFO has none, as an in-process server's).
func serverPID(addr string) (int, error) {
	// Dialled here, once: a pool dialling a server not yet up logs each
	// failure, and this is polled until it is up.
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return 0, err
	}
	c := redis.NewClient(&redis.Options{
		Dialer:      func(context.Context, string, string) (net.Conn, error) { return conn, nil },
		ReadTimeout: time.Second, MaxRetries: -1, PoolSize: 1,
	})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	info, err := c.Info(ctx, "server").Result()
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}
