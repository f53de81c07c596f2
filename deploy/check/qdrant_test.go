package check

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
)

// svc-memory keeps its vector index in Qdrant when QDRANT_ADDR is set, else in an embedded
// in-process index that each replica builds on its own (DESIGN.md). These checks keep the
// deployment files consistent with that.

const (
	memoryService = "svc-memory"
	qdrantGRPC    = "6334"
)

// checkComposeQdrant: svc-memory's QDRANT_ADDR names the gRPC port of a compose service that
// has a healthcheck and a pinned image, svc-memory waits for it, and both share the API key.
func checkComposeQdrant(t *testing.T, p *types.Project) {
	mem, err := p.GetService(memoryService)
	if err != nil {
		t.Skipf("no %s in docker-compose.yml (TestCompose reports it)", memoryService)
	}
	env := func(s types.ServiceConfig, k string) string {
		if v := s.Environment[k]; v != nil {
			return *v
		}
		return ""
	}
	addr := env(mem, "QDRANT_ADDR")
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port != qdrantGRPC {
		t.Fatalf("%s QDRANT_ADDR = %q, want <service>:%s (Qdrant's gRPC port)", memoryService, addr, qdrantGRPC)
	}
	q, err := p.GetService(host)
	if err != nil {
		t.Fatalf("QDRANT_ADDR names %q, which is not a service in docker-compose.yml", host)
	}
	if q.HealthCheck == nil || len(q.HealthCheck.Test) == 0 {
		t.Errorf("service %s has no healthcheck (%s waits for it)", host, memoryService)
	}
	if d, ok := mem.DependsOn[host]; !ok || d.Condition != types.ServiceConditionHealthy {
		t.Errorf("%s depends_on %s: got %+v, want condition service_healthy", memoryService, host, d)
	}
	if !pinnedTag(q.Image) {
		t.Errorf("service %s image %q is not pinned to a version tag (its data lives in a volume)", host, q.Image)
	}
	key := env(mem, "QDRANT_API_KEY")
	if key != composeEnv["QDRANT_API_KEY"] {
		t.Errorf("%s QDRANT_API_KEY = %q, want the value from the environment", memoryService, key)
	}
	if got := env(q, "QDRANT__SERVICE__API_KEY"); got != key {
		t.Errorf("%s QDRANT__SERVICE__API_KEY = %q, want svc-memory's QDRANT_API_KEY", host, got)
	}
}

// pinnedTag: name:tag with a tag that is not latest (compose images need no registry).
func pinnedTag(image string) bool {
	if strings.Contains(image, "@sha256:") {
		return true
	}
	colon := strings.LastIndex(image, ":")
	if colon < 0 || colon < strings.LastIndex(image, "/") {
		return false
	}
	tag := image[colon+1:]
	return tag != "" && tag != "latest"
}

// checkMemoryReplicas: more than one svc-memory pod (or an HPA, which removes replicas) needs
// a shared Qdrant; with the embedded index each pod would answer from its own partial index.
func checkMemoryReplicas(t *testing.T, m *manifests) {
	d := m.deployments[memoryService]
	if d == nil {
		return // checkCommon reports it
	}
	single := d.Spec.Replicas != nil && *d.Spec.Replicas == 1 && m.hpas[memoryService] == nil
	if single {
		return
	}
	addr := ""
	if cm := collabConfig(t, m); cm != nil {
		addr = cm.Data["QDRANT_ADDR"]
	}
	for _, c := range d.Spec.Template.Spec.Containers {
		for _, e := range c.Env {
			if e.Name == "QDRANT_ADDR" {
				addr = e.Value // env wins over envFrom
			}
		}
	}
	if addr == "" {
		scale := "an HPA"
		if d.Spec.Replicas != nil && m.hpas[memoryService] == nil {
			scale = fmt.Sprintf("%d replicas", *d.Spec.Replicas)
		}
		t.Errorf("Deployment %s runs with %s but no QDRANT_ADDR: the embedded index is per pod; set QDRANT_ADDR or replicas 1",
			memoryService, scale)
		return
	}
	if _, port, err := net.SplitHostPort(addr); err != nil || port != qdrantGRPC {
		t.Errorf("QDRANT_ADDR = %q, want host:%s (Qdrant's gRPC port)", addr, qdrantGRPC)
	}
}

func TestPinnedTag(t *testing.T) {
	for image, want := range map[string]bool{
		"qdrant/qdrant:v1.15.5-unprivileged": true, "qdrant/qdrant": false, "qdrant/qdrant:latest": false,
		"localhost:5000/qdrant": false, "qdrant/qdrant@sha256:abc": true,
	} {
		if got := pinnedTag(image); got != want {
			t.Errorf("pinnedTag(%q) = %v, want %v", image, got, want)
		}
	}
}
