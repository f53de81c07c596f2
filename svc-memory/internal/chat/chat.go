// Package chat is a minimal client of an OpenAI-compatible chat
// completions endpoint (POST {baseURL}/v1/chat/completions), used by ask to
// write answers from retrieved judgments.
package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	defaultTimeout   = 60 * time.Second
	maxResponseBytes = 4 << 20
	// temperature 0: answers grounded in records, not creative writing.
	temperature = 0
)

// Client calls one model on one endpoint.
type Client struct {
	endpoint string
	apiKey   string
	model    string
	hc       *http.Client
}

// New configures a client for {baseURL}/v1/chat/completions (a baseURL
// already ending in /v1 is accepted). apiKey may be empty for local
// servers; hc nil means a client with a 60 s timeout.
func New(baseURL, apiKey, model string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("chat: base URL %q is not an http(s) URL", baseURL)
	}
	if model == "" {
		return nil, errors.New("chat: model is required")
	}
	if hc == nil {
		hc = &http.Client{Timeout: defaultTimeout}
	}
	endpoint := u.String()
	if !strings.HasSuffix(endpoint, "/v1") {
		endpoint += "/v1"
	}
	return &Client{endpoint: endpoint + "/chat/completions", apiKey: apiKey, model: model, hc: hc}, nil
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type request struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature float64   `json:"temperature"`
}

type response struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

// Complete sends a system and a user message and returns the first
// choice's text.
func (c *Client) Complete(ctx context.Context, system, user string) (string, error) {
	body, err := json.Marshal(request{Model: c.model, Temperature: temperature, Messages: []message{
		{Role: "system", Content: system}, {Role: "user", Content: user},
	}})
	if err != nil {
		return "", fmt.Errorf("chat: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("chat: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("chat: call endpoint: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return "", fmt.Errorf("chat: read response: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("chat: endpoint answered HTTP %d: %.200s", resp.StatusCode, raw)
	}
	var out response
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Choices) == 0 {
		return "", fmt.Errorf("chat: malformed response: %.200s", raw)
	}
	return out.Choices[0].Message.Content, nil
}
