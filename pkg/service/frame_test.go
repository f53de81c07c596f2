package service_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/testenv"
)

type cfg struct{ service.Base }

func start(t *testing.T) *service.Frame {
	t.Helper()
	c := cfg{service.Base{InternalSecret: strings.Repeat("s", service.MinSecretLen)}}
	f, err := service.Start(t.Context(), "svc-test", &c, service.Deps{DB: testenv.Mongo(t), Redis: testenv.Redis(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func TestStartRefusesBadConfigAndMissingStores(t *testing.T) {
	t.Parallel()
	if _, err := service.Start(t.Context(), "svc-test", &cfg{}, service.Deps{}); err == nil || !strings.Contains(err.Error(), "svc-test: INTERNAL_SECRET") {
		t.Fatalf("short secret: err = %v", err)
	}
	c := cfg{service.Base{InternalSecret: strings.Repeat("s", service.MinSecretLen)}}
	if _, err := service.Start(t.Context(), "svc-test", &c, service.Deps{}); err == nil {
		t.Fatal("started without stores")
	}
}

func TestReadinessRunsChecksThenPingsStores(t *testing.T) {
	t.Parallel()
	f := start(t)
	ready := func() int {
		rec := httptest.NewRecorder()
		f.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
		return rec.Code
	}
	if got := ready(); got != http.StatusOK {
		t.Fatalf("/readyz = %d, want 200", got)
	}
	var notYet = errors.New("catching up")
	f.ReadyWhen(func(context.Context) error { return notYet })
	if got := ready(); got != http.StatusServiceUnavailable {
		t.Fatalf("/readyz with a failing check = %d, want 503", got)
	}
}

func TestCloseStopsBackgroundWorkAndFailNamesTheService(t *testing.T) {
	t.Parallel()
	f := start(t)
	stopped := make(chan struct{})
	f.Go(func(ctx context.Context) { <-ctx.Done(); close(stopped) })
	failing := func(context.Context) error { return errors.New("no index") }
	err := f.Ensure(t.Context(), failing)
	if err == nil || err.Error() != "svc-test: no index" {
		t.Fatalf("Ensure err = %v", err)
	}
	select {
	case <-stopped: // Ensure's failure closed the frame
	default:
		t.Fatal("background work still running after a failed start")
	}
	f.Close() // again: nothing
}

func TestPublisherRelaysUntilClose(t *testing.T) {
	t.Parallel()
	f := start(t)
	pub, err := f.Publisher(t.Context(), "test")
	if err != nil || pub == nil {
		t.Fatalf("Publisher = %v, %v", pub, err)
	}
	if c := f.Client("svc-x", ""); c != nil {
		t.Fatal("a client for a service without an address")
	}
	if routes := f.Routes(); len(routes) == 0 {
		t.Fatal("no routes listed (health and metrics at least)")
	}
}
