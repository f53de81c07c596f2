package svcmain

import (
	"context"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/telemetry"
)

type cfg struct {
	service.Base
	Name string `env:"SVCMAIN_TEST_NAME, default=x"`
}

func TestRunStopsOnBadConfigurationBeforeBuilding(t *testing.T) {
	t.Setenv("INTERNAL_SECRET", strings.Repeat("s", service.MinSecretLen))
	built := false
	build := func(context.Context, Deps) (Service, error) { built = true; return nil, nil }
	var c cfg // no MONGO_URI in the environment
	err := Run(context.Background(), telemetry.Service{Name: "t"}, &c, build)
	if err == nil || !strings.Contains(err.Error(), "MONGO_URI is required") {
		t.Fatalf("err = %v", err)
	}
	if built {
		t.Fatal("service built despite invalid configuration")
	}
}

func TestRunFailsWhenStoresAreUnreachable(t *testing.T) {
	t.Setenv("INTERNAL_SECRET", strings.Repeat("s", service.MinSecretLen))
	t.Setenv("MONGO_URI", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200&connectTimeoutMS=200")
	t.Setenv("REDIS_URL", "redis://127.0.0.1:1")
	var c cfg
	build := func(context.Context, Deps) (Service, error) { t.Fatal("built without stores"); return nil, nil }
	if err := Run(context.Background(), telemetry.Service{Name: "svc-t"}, &c, build); err == nil {
		t.Fatal("want an error for unreachable MongoDB")
	}
	if c.Name != "x" || c.MongoDB != "collab_t" {
		t.Fatalf("loaded config = %+v, want defaults (SVCMAIN_TEST_NAME=x, MONGO_DB=collab_t)", c)
	}
}
