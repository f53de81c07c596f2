package svcclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
)

func TestCallRoundTrip(t *testing.T) {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	e := web.NewEngine(nil)
	e.Use(signer.Authenticate())
	e.POST("/internal/echo", web.Handle(func(c *gin.Context) (*api.Result, error) {
		var in struct {
			Name string `json:"name" validate:"required"`
		}
		if err := api.Decode(c.Request, &in); err != nil {
			return nil, err
		}
		return api.OK("ok", map[string]string{"hello": in.Name, "principal": internalauth.PrincipalFrom(c.Request.Context())}), nil
	}))
	srv := httptest.NewServer(e)
	defer srv.Close()

	c := New("echo", srv.URL, signer)
	var out map[string]string
	if err := c.Call(context.Background(), "/internal/echo", internalauth.Service("test"), map[string]string{"name": "ann"}, &out); err != nil {
		t.Fatal(err)
	}
	if out["hello"] != "ann" || out["principal"] != "service:test" {
		t.Fatalf("out = %v", out)
	}
	err := c.Call(context.Background(), "/internal/echo", internalauth.Service("test"), map[string]string{}, &out)
	if !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("missing name: err = %v", err)
	}
	bad := New("echo", srv.URL, internalauth.NewSigner("another-secret-another"))
	if err := bad.Call(context.Background(), "/internal/echo", internalauth.Service("t"), map[string]string{"name": "x"}, nil); !api.IsStatus(err, api.PermissionDenied) {
		t.Fatalf("wrong secret: err = %v", err)
	}
	down := New("echo", "http://127.0.0.1:1", signer)
	if err := down.Call(context.Background(), "/x", internalauth.Service("t"), nil, nil); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("down: err = %v", err)
	}
	var none *Client
	if err := none.Call(context.Background(), "/x", "", nil, nil); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("unconfigured: %v", err)
	}
	_ = http.StatusOK
}

// A service that cannot be reached is UNAVAILABLE, and the transport error
// that explains it stays reachable for logs and errors.Is/As.
func TestUnreachableKeepsTheTransportError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nobody listens there now

	c := New("gone", url, internalauth.NewSigner("s3cret-s3cret-s3cret"))
	err := c.Call(context.Background(), "/internal/echo", internalauth.Service("test"), map[string]string{}, nil)
	if !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("want UNAVAILABLE, got %v", err)
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) || opErr.Op != "dial" {
		t.Fatalf("the dial error is lost: %#v", err)
	}
	if !strings.Contains(err.Error(), "gone is unavailable") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("error text %q names neither the service nor the cause", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Call(ctx, "/internal/echo", internalauth.Service("test"), nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a canceled call hides context.Canceled: %v", err)
	}
}
