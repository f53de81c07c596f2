// Package svcclient calls another service's /internal routes: it wraps the
// body in {"data": ...}, signs the principal, propagates the trace context,
// and turns the reply envelope back into data or an *api.Error. A service
// that cannot be reached is UNAVAILABLE, never a partial answer.
package svcclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// Client calls one service.
type Client struct {
	name   string
	base   string
	signer *internalauth.Signer
	hc     *http.Client
}

// New returns a client for the service called name at baseURL.
func New(name, baseURL string, signer *internalauth.Signer) *Client {
	return &Client{name: name, base: baseURL, signer: signer, hc: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second},
	}}
}

// Configured reports whether the service has an address.
func (c *Client) Configured() bool { return c != nil && c.base != "" }

// Call posts in to path as principal and decodes result.data into out
// (out may be nil).
func (c *Client) Call(ctx context.Context, path, principal string, in, out any) error {
	if !c.Configured() {
		return api.Errorf(api.Unavailable, "service is not deployed")
	}
	body, err := json.Marshal(map[string]any{"data": in})
	if err != nil {
		return fmt.Errorf("encode %s request: %w", path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build %s request: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	c.signer.Sign(req.Header, principal)
	otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(req.Header))
	resp, err := c.hc.Do(req)
	if err != nil {
		return api.Errorf(api.Unavailable, "%s is unavailable", c.name).WithCause(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return api.Errorf(api.Unavailable, "%s: reading the reply failed", c.name).WithCause(err)
	}
	if resp.StatusCode != http.StatusOK {
		return api.ParseError(raw, resp.StatusCode)
	}
	if out == nil {
		return nil
	}
	var env struct {
		Result struct {
			Data json.RawMessage `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("decode %s reply: %w", path, err)
	}
	if err := json.Unmarshal(env.Result.Data, out); err != nil {
		return fmt.Errorf("decode %s data: %w", path, err)
	}
	return nil
}
