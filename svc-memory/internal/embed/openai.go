package embed

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
	// maxBatch keeps each request well under the input-count limits of
	// OpenAI-compatible servers (OpenAI allows 2048).
	maxBatch = 256
	// maxResponseBytes bounds what we read from the endpoint.
	maxResponseBytes = 64 << 20
	defaultTimeout   = 30 * time.Second
)

// OpenAI calls an OpenAI-compatible embeddings endpoint
// (POST {baseURL}/v1/embeddings). Returned vectors are L2-normalised.
type OpenAI struct {
	endpoint string
	apiKey   string
	model    string
	dim      int
	client   *http.Client
}

// NewOpenAI configures a client for {baseURL}/v1/embeddings; a baseURL that
// already ends in /v1 is accepted as is. dim is the model's vector length
// (every response is checked against it). apiKey may be empty for local
// servers; httpClient nil means a client with a 30 s timeout.
func NewOpenAI(baseURL, apiKey, model string, dim int, httpClient *http.Client) (*OpenAI, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: base URL %q is not an http(s) URL", ErrInvalid, baseURL)
	}
	if model == "" {
		return nil, fmt.Errorf("%w: model is required", ErrInvalid)
	}
	if dim <= 0 {
		return nil, fmt.Errorf("%w: dimension must be positive, got %d", ErrInvalid, dim)
	}
	if httpClient == nil {
		httpClient = &http.Client{Timeout: defaultTimeout}
	}
	endpoint := u.String()
	if !strings.HasSuffix(endpoint, "/v1") {
		endpoint += "/v1"
	}
	return &OpenAI{endpoint: endpoint + "/embeddings", apiKey: apiKey, model: model, dim: dim, client: httpClient}, nil
}

// Dim implements Embedder.
func (o *OpenAI) Dim() int { return o.dim }

// Model implements Embedder: the endpoint's model name.
func (o *OpenAI) Model() string { return o.model }

// Embed implements Embedder. Empty texts are answered locally with the zero
// vector (the API rejects empty input); the rest go out in batches.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var pending []int // indexes of texts to send
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			out[i] = make([]float32, o.dim)
			continue
		}
		pending = append(pending, i)
	}
	for start := 0; start < len(pending); start += maxBatch {
		batch := pending[start:min(start+maxBatch, len(pending))]
		inputs := make([]string, len(batch))
		for j, i := range batch {
			inputs[j] = texts[i]
		}
		vecs, err := o.request(ctx, inputs)
		if err != nil {
			return nil, err
		}
		for j, i := range batch {
			out[i] = vecs[j]
		}
	}
	return out, nil
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

type errorResponse struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	} `json:"error"`
}

// request sends one batch and returns its vectors in input order.
func (o *OpenAI) request(ctx context.Context, inputs []string) ([][]float32, error) {
	body, err := json.Marshal(embeddingsRequest{Model: o.model, Input: inputs})
	if err != nil {
		return nil, fmt.Errorf("%w: encode request: %v", ErrInvalid, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if o.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.apiKey)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, fmt.Errorf("%w: read response: %v", ErrUnavailable, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, statusError(resp.StatusCode, raw)
	}
	return o.decode(raw, len(inputs))
}

// decode checks that every input got exactly one vector of the right
// length, places them by their index field and normalises them.
func (o *OpenAI) decode(raw []byte, n int) ([][]float32, error) {
	var parsed embeddingsResponse
	if err := json.Unmarshal(raw, &parsed); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadResponse, err)
	}
	if len(parsed.Data) != n {
		return nil, fmt.Errorf("%w: %d embeddings for %d inputs", ErrBadResponse, len(parsed.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range parsed.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("%w: bad or repeated index %d", ErrBadResponse, d.Index)
		}
		if len(d.Embedding) != o.dim {
			return nil, fmt.Errorf("%w: embedding of length %d, configured dimension is %d", ErrInvalid, len(d.Embedding), o.dim)
		}
		normalize(d.Embedding)
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// statusError maps an HTTP failure to the package errors, keeping the
// endpoint's own message for the logs.
func statusError(status int, raw []byte) error {
	msg := strings.TrimSpace(string(raw))
	var parsed errorResponse
	if json.Unmarshal(raw, &parsed) == nil && parsed.Error.Message != "" {
		msg = parsed.Error.Message
	}
	if len(msg) > 512 {
		msg = msg[:512]
	}
	var kind error
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		kind = ErrUnauthorized
	case status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500:
		kind = ErrUnavailable
	default:
		kind = ErrInvalid
	}
	return &StatusError{Status: status, Message: msg, kind: kind}
}

// StatusError is a non-2xx answer from the endpoint. It matches ErrInvalid,
// ErrUnauthorized or ErrUnavailable under errors.Is.
type StatusError struct {
	Status  int
	Message string
	kind    error
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%v: HTTP %d: %s", e.kind, e.Status, e.Message)
}

// Is lets errors.Is(err, ErrUnavailable) etc. work on a StatusError.
func (e *StatusError) Is(target error) bool { return errors.Is(e.kind, target) }
