package svcmain

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/telemetry"
)

type cfg struct {
	Name string `env:"SVCMAIN_TEST_NAME, default=x"`
}

type storesCfg struct{ cfg }

func (storesCfg) ValidateStores() error { return errors.New("MONGO_URI is required") }

func TestRunStopsOnBadConfigurationBeforeBuilding(t *testing.T) {
	built := false
	build := func(context.Context, Deps) (Service, error) { built = true; return nil, nil }
	var c storesCfg
	err := Run(context.Background(), telemetry.Service{Name: "t"}, &c, func() Settings { return Settings{} }, build)
	if err == nil || !strings.Contains(err.Error(), "MONGO_URI is required") {
		t.Fatalf("err = %v", err)
	}
	if built {
		t.Fatal("service built despite invalid configuration")
	}
}

func TestRunFailsWhenStoresAreUnreachable(t *testing.T) {
	var c cfg
	build := func(context.Context, Deps) (Service, error) { t.Fatal("built without stores"); return nil, nil }
	settings := func() Settings {
		if c.Name != "x" {
			t.Errorf("settings read before load: %q", c.Name)
		}
		return Settings{MongoURI: "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200&connectTimeoutMS=200", RedisURL: "redis://127.0.0.1:1"}
	}
	if err := Run(context.Background(), telemetry.Service{Name: "t"}, &c, settings, build); err == nil {
		t.Fatal("want an error for unreachable MongoDB")
	}
}
