package main

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// epoch is every timestamp in the image: the same sources give the same
// digest.
var epoch = time.Unix(0, 0).UTC()

// nonroot is the uid/gid the images run as (compose and k8s use it too).
const nonroot = "65532:65532"

type imageSpec struct {
	service, version, tag, arch string
	binary                      string
	certs                       []byte
}

// writeImage assembles the image and writes it as an OCI layout tarball;
// it returns the manifest digest.
func writeImage(s imageSpec, file string) (string, error) {
	img, err := assemble(s)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "oci-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return "", err
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": s.tag,
	})); err != nil {
		return "", err
	}
	if err := tarDir(dir, file); err != nil {
		return "", err
	}
	d, err := img.Digest()
	return d.String(), err
}

func assemble(s imageSpec) (v1.Image, error) {
	app, err := os.ReadFile(s.binary)
	if err != nil {
		return nil, err
	}
	files := []tarFile{
		{name: "app", mode: 0o755, data: app},
		{name: "etc/ssl/certs/ca-certificates.crt", mode: 0o644, data: s.certs},
		{name: "tmp/", mode: 0o1777, dir: true},
	}
	layerTar, err := makeTar(files)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, History: v1.History{
		Created: v1.Time{Time: epoch}, CreatedBy: "deploy/local/cmd/images", Comment: s.service + " " + s.version,
	}})
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture, cfg.Created = "linux", s.arch, v1.Time{Time: epoch}
	cfg.Config.Entrypoint = []string{"/app"}
	cfg.Config.User = nonroot
	cfg.Config.Env = []string{"LISTEN_ADDR=:8080", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"}
	cfg.Config.ExposedPorts = map[string]struct{}{"8080/tcp": {}}
	cfg.Config.Labels = map[string]string{
		"org.opencontainers.image.title":   s.service,
		"org.opencontainers.image.version": s.version,
		"org.opencontainers.image.source":  "https://github.com/opencollab/backend",
	}
	return mutate.ConfigFile(img, cfg)
}

type tarFile struct {
	name string
	mode int64
	data []byte
	dir  bool
}

// makeTar writes files in order with fixed owners and times.
func makeTar(files []tarFile) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if f.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	err := tw.Close()
	return buf.Bytes(), err
}

// tarDir packs an OCI layout folder into file, entries sorted, times fixed.
func tarDir(dir, file string) error {
	var files []tarFile
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			files = append(files, tarFile{name: filepath.ToSlash(rel) + "/", mode: 0o755, dir: true})
			return nil
		}
		data, err := os.ReadFile(path)
		files = append(files, tarFile{name: filepath.ToSlash(rel), mode: 0o644, data: data})
		return err
	})
	if err != nil {
		return err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	b, err := makeTar(files)
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o644)
}
