// Command images builds one OCI image per service without a container
// engine: a static binary and the CA certificates on an empty base
// (scratch), written as an OCI layout tarball per service,
// <out>/<service>-v<version>.oci.tar, tagged opencollab/<service>:v<version>
// with the service's own VERSION. Builds are reproducible: fixed
// timestamps, -trimpath, no VCS stamp, sorted tar entries.
//
//	go run ./deploy/local/cmd/images [-out bin/images] [-arch amd64] [service ...]
//
// Load one with `podman load -i` / `skopeo copy oci-archive:...`, or push
// it with crane.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Services are the deployable binaries: directory = command = image name.
var Services = []string{"gateway", "svc-workspace", "svc-identity", "svc-activity", "svc-notify", "svc-content", "svc-memory"}

// caBundle is where Debian (and most distributions) keep the CA bundle.
const caBundle = "/etc/ssl/certs/ca-certificates.crt"

func main() {
	out := flag.String("out", "bin/images", "folder for the OCI layout tarballs")
	arch := flag.String("arch", "amd64", "GOARCH of the images (linux)")
	flag.Parse()
	services := flag.Args()
	if len(services) == 0 {
		services = Services
	}
	if err := run(*out, *arch, services); err != nil {
		fmt.Fprintln(os.Stderr, "images:", err)
		os.Exit(1)
	}
}

func run(out, arch string, services []string) error {
	certs, err := os.ReadFile(caBundle)
	if err != nil {
		return fmt.Errorf("CA certificates (apt-get install ca-certificates): %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "images-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	for _, svc := range services {
		version, err := readVersion(svc)
		if err != nil {
			return err
		}
		bin := filepath.Join(work, svc)
		if err := buildBinary(svc, arch, bin); err != nil {
			return err
		}
		tag := "opencollab/" + svc + ":v" + version
		file := filepath.Join(out, svc+"-v"+version+".oci.tar")
		digest, err := writeImage(imageSpec{service: svc, version: version, tag: tag, arch: arch, binary: bin, certs: certs}, file)
		if err != nil {
			return fmt.Errorf("%s: %w", svc, err)
		}
		fmt.Printf("%s\t%s\t%s\n", tag, digest, file)
	}
	return nil
}

// readVersion is the service's VERSION file.
func readVersion(svc string) (string, error) {
	b, err := os.ReadFile(filepath.Join(svc, "VERSION"))
	if err != nil {
		return "", fmt.Errorf("%s has no VERSION (run from the repository root): %w", svc, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return "", fmt.Errorf("%s/VERSION is empty", svc)
	}
	return v, nil
}
