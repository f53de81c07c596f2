package main

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

// callTimeout bounds one call. A search or a 100-record add takes
// milliseconds to a few seconds on the embedded store; a call still
// running after this long means the system is stuck, not slow.
const callTimeout = 2 * time.Minute

// client calls the gateway with the local workspace credentials, as a
// customer backend does: every figure includes the gateway hop.
type client struct {
	hc        *http.Client
	url       string
	apiKey    string
	authToken string
}

func newClient(sys *system.System, conc int) *client {
	// Enough idle connections that the load phase reuses them instead of
	// measuring TCP handshakes.
	tr := &http.Transport{MaxIdleConns: 4 * conc, MaxIdleConnsPerHost: 4 * conc, IdleConnTimeout: time.Minute}
	return &client{
		hc:  &http.Client{Transport: tr, Timeout: callTimeout},
		url: sys.GatewayURL, apiKey: sys.Credentials.APIKey, authToken: sys.Credentials.AuthToken,
	}
}

// call posts {"data": data} to path and decodes the reply's result object
// into out (nil: the reply is read and dropped). Anything but HTTP 200 is
// an error carrying the start of the body, so a failure names its cause.
func (c *client) call(ctx context.Context, path string, data, out any) error {
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-svc-api-key", c.apiKey)
	req.Header.Set("x-svc-auth-token", c.authToken)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d %.300s", path, resp.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	// The memory operations answer a bare result (no status, message or
	// data wrapper), so out is matched against result itself.
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(b, &env); err != nil || len(env.Result) == 0 {
		return fmt.Errorf("%s: reply without result: %.300s", path, b)
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		return fmt.Errorf("%s: result: %w", path, err)
	}
	return nil
}

// searchReply is result of /v2/memory/search.
type searchReply struct {
	Results []struct {
		RecordID string `json:"recordId"`
	} `json:"results"`
	TotalInScope    *int64   `json:"totalInScope"`
	SearchLatencyMs *float64 `json:"searchLatencyMs"`
}

// queryPage is result of /v2/memory/judgments/query.
type queryPage struct {
	Results []struct {
		RecordID string `json:"recordId"`
	} `json:"results"`
	NextPageToken *string `json:"nextPageToken"`
}
