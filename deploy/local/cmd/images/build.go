package main

import (
	"fmt"
	"os"
	"os/exec"
)

// buildBinary builds svc's static linux binary reproducibly.
func buildBinary(svc, arch, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=",
		"-o", out, "./"+svc+"/cmd/"+svc)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", svc, err)
	}
	return nil
}
