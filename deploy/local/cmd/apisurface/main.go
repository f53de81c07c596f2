// Command apisurface records each service's API surface in its
// api-surface.txt, with the VERSION it belongs to (`make api-surface`).
// Run it after bumping the VERSION of a service whose routes changed.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/opencollab/backend/deploy/local/internal/release"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "apisurface:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := release.RepoRoot(".")
	if err != nil {
		return err
	}
	for _, svc := range release.Services {
		routes, err := release.Surface(root, svc)
		if err != nil {
			return err
		}
		version, err := release.Version(root, svc)
		if err != nil {
			return err
		}
		file := filepath.Join(root, svc, release.SurfaceFile)
		if err := os.WriteFile(file, []byte(release.FormatSurface(svc, version, routes)), 0o644); err != nil {
			return err
		}
	}
	return nil
}
