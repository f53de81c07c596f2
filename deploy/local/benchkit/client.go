package benchkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/opencollab/backend/deploy/local/system"
)

// Client calls the gateway of an embedded system with its workspace
// credentials, as a customer backend does: every figure includes the hop.
type Client struct {
	hc        *http.Client
	url       string
	apiKey    string
	authToken string
}

// NewClient keeps conns idle connections, so a load phase reuses them
// instead of measuring TCP handshakes; timeout bounds one call.
func NewClient(sys *system.System, conns int, timeout time.Duration) *Client {
	tr := &http.Transport{MaxIdleConns: 4 * conns, MaxIdleConnsPerHost: 4 * conns, IdleConnTimeout: time.Minute}
	return &Client{
		hc:  &http.Client{Transport: tr, Timeout: timeout},
		url: sys.GatewayURL, apiKey: sys.Credentials.APIKey, authToken: sys.Credentials.AuthToken,
	}
}

// Call posts {"data": data} to the gateway's path and decodes the reply's
// result object into out (nil: the reply is read and dropped).
func (c *Client) Call(ctx context.Context, path string, data, out any) error {
	return c.Post(ctx, c.url+path, func(h http.Header) {
		h.Set("x-svc-api-key", c.apiKey)
		h.Set("x-svc-auth-token", c.authToken)
	}, data, out)
}

// Post is Call to any url, with the headers auth sets. Anything but HTTP
// 200, or a reply without a result, is an error carrying the start of the
// body, so a failure names its cause.
func (c *Client) Post(ctx context.Context, url string, auth func(http.Header), data, out any) error {
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	auth(req.Header)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: read reply: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d %.300s", url, resp.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(b, &reply); err != nil || len(reply.Result) == 0 {
		return fmt.Errorf("%s: reply without result: %.300s", url, b)
	}
	if err := json.Unmarshal(reply.Result, out); err != nil {
		return fmt.Errorf("%s: result: %w", url, err)
	}
	return nil
}
