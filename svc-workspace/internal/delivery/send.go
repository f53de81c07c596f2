package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/opencollab/backend/pkg/telemetry"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// storedResponseBytes is how much of a reply the attempt record keeps.
const storedResponseBytes = 1 << 10

// send makes attempt a of message m and returns its outcome (never an
// error: every failure is a failed attempt).
func (s *Service) send(ctx context.Context, cfg webhook.Config, t webhook.DeliveryTarget, m messageDoc, a attemptDoc) outcomeDoc {
	out := newOutcome(a, s.opts.ConsumerName)
	req, err := s.request(ctx, cfg, t, m)
	if err != nil {
		out.Error = err.Error()
		out.FinishedAt = s.now()
		return out
	}
	// A claim is worth sending on only while the lease covers the whole
	// request; otherwise another worker may already count it interrupted.
	if s.now().Add(s.opts.Timeout).After(a.LeaseUntil) {
		out.Interrupted, out.Error, out.FinishedAt = true, "claim expired before the request was made", s.now()
		return out
	}
	rctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	started := time.Now()
	resp, err := s.client.Do(req.WithContext(rctx))
	if err == nil {
		// The status decides; a reply body cut short changes nothing.
		reply, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
		_ = resp.Body.Close()
		code := resp.StatusCode
		out.StatusCode = &code
		out.ResponseBody = strings.ToValidUTF8(string(reply[:min(len(reply), storedResponseBytes)]), "")
	}
	ms := time.Since(started).Milliseconds()
	out.DurationMs = &ms
	out.FinishedAt = s.now()
	switch {
	case err != nil:
		out.Error = requestError(err, s.opts.Timeout)
	case *out.StatusCode < 200 || *out.StatusCode > 299:
		out.Error = fmt.Sprintf("endpoint answered HTTP %d", *out.StatusCode)
	default:
		out.Succeeded = true
	}
	observeDelivery(rctx, out, time.Since(started))
	return out
}

// observeDelivery records the attempt's outcome and duration in the
// service's metrics.
func observeDelivery(ctx context.Context, out outcomeDoc, d time.Duration) {
	outcome := telemetry.DeliveryError
	switch {
	case out.Succeeded:
		outcome = telemetry.DeliverySucceeded
	case out.StatusCode != nil:
		outcome = telemetry.DeliveryRejected
	}
	telemetry.ObserveWebhookDelivery(ctx, outcome, d)
}

// request builds the signed request of one attempt.
func (s *Service) request(ctx context.Context, cfg webhook.Config, t webhook.DeliveryTarget, m messageDoc) (*http.Request, error) {
	u, err := url.Parse(t.Endpoint.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint url %q is not an http(s) URL", t.Endpoint.URL)
	}
	if len(t.Secrets) == 0 {
		return nil, errors.New("endpoint has no signing secret")
	}
	payload, err := transform([]byte(m.Payload), cfg)
	if err != nil {
		return nil, fmt.Errorf("build payload: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "opencollab-webhooks/1")
	// The wall clock, not Options.Now: receivers check the timestamp
	// against theirs (Standard Webhooks allows 5 minutes of skew).
	signHeaders(req.Header, m.ID, time.Now(), payload, t.Secrets)
	return req, nil
}

// requestError says why a request got no usable reply.
func requestError(err error, timeout time.Duration) string {
	if b, ok := refusedTarget(err); ok {
		return b.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("no complete reply within %s", timeout)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return "request failed: " + uerr.Err.Error()
	}
	return "request failed: " + err.Error()
}

// newOutcome starts the outcome of attempt a, decided by owner.
func newOutcome(a attemptDoc, owner string) outcomeDoc {
	return outcomeDoc{
		ID: a.ID, WorkspaceID: a.WorkspaceID, EndpointID: a.EndpointID, MessageID: a.MessageID,
		Attempt: a.Attempt, StartedAt: a.StartedAt, Owner: owner,
	}
}
