package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// startOurs builds and runs the local system (gateway, services, embedded
// FerretDB and Redis in one process) and mints a user token granting the
// benchmark's organization.
func startOurs(dataDir, org string, profiled bool) (*server, string, error) {
	bin := filepath.Join(dataDir, "local")
	build := exec.Command("go", "build", "-o", bin, "github.com/opencollab/backend/deploy/local")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("build: %v\n%s", err, out)
	}
	addr := freePort()
	s := &server{name: "svc-content via gateway", url: "ws://" + addr + "/v2/crdt/hocuspocus"}
	s.cmd = exec.Command(bin)
	s.cmd.Env = append(os.Environ(), "DATA_DIR="+filepath.Join(dataDir, "data"), "GATEWAY_ADDR="+addr, "LOG_LEVEL=error", "RATE_LIMIT_PER_SECOND=0",
		"REALTIME_MAX_CONNECTIONS_PER_DOCUMENT=10000")
	if profiled {
		s.pprof = freePort()
		s.cmd.Env = append(s.cmd.Env, "PPROF_ADDR="+s.pprof)
	}
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	if err := s.cmd.Start(); err != nil {
		return nil, "", err
	}
	if err := waitHTTP("http://"+addr+"/healthz", 2*time.Minute); err != nil {
		s.stop()
		return nil, "", fmt.Errorf("%w\n%s", err, s.out.String())
	}
	token, err := mintToken("http://"+addr, filepath.Join(dataDir, "data"), org)
	return s, token, err
}

func mintToken(gateway, dataDir, org string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dataDir, "local-credentials.json"))
	if err != nil {
		return "", err
	}
	var creds struct{ APIKey, AuthToken string }
	if err := json.Unmarshal(raw, &creds); err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]any{"data": map[string]any{
		"userId": "bench", "userProperties": map[string]any{"name": "Bench", "email": "bench@example.com"},
		"permissions": map[string]any{"resources": []any{map[string]any{"type": "organization", "id": org, "accessRole": "editor"}}},
	}})
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, gateway+"/v2/auth/generate_token", bytes.NewReader(body))
	req.Header.Set("x-svc-api-key", creds.APIKey)
	req.Header.Set("x-svc-auth-token", creds.AuthToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		Result struct {
			Data struct{ Token string } `json:"data"`
		} `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Result.Data.Token == "" {
		return "", fmt.Errorf("generate_token failed (%d)", resp.StatusCode)
	}
	return out.Result.Data.Token, nil
}

// startHocuspocus runs stock @hocuspocus/server (tools/realtimebench).
func startHocuspocus(repo string) (*server, error) {
	dir := filepath.Join(repo, "tools", "realtimebench")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		npm := exec.Command("npm", "ci", "--prefix", dir, "--no-audit", "--no-fund")
		if out, err := npm.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("npm ci in tools/realtimebench: %v\n%s", err, out)
		}
	}
	addr := freePort()
	_, port, _ := splitHostPort(addr)
	s := &server{name: "@hocuspocus/server 4.7.0", url: "ws://" + addr}
	s.cmd = exec.Command("node", filepath.Join(dir, "server.mjs"), port)
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	if err := waitTCP(addr, 30*time.Second); err != nil {
		s.stop()
		return nil, fmt.Errorf("%w\n%s", err, s.out.String())
	}
	return s, nil
}

func splitHostPort(addr string) (string, string, error) {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			return addr[:i], addr[i+1:], nil
		}
	}
	return "", "", fmt.Errorf("no port in %s", addr)
}
