// Package api holds the wire conventions every service shares: the success and
// error envelopes of the spec, the one table that maps an error status to an
// HTTP status, and strict decoding of the `{"data": {...}}` request body.
package api

import (
	"errors"
	"fmt"
	"net"
	"net/http"
)

// Status is an error status name of the spec, e.g. INVALID_ARGUMENT.
type Status string

// The error statuses the interface uses.
const (
	InvalidArgument    Status = "INVALID_ARGUMENT"
	FailedPrecondition Status = "FAILED_PRECONDITION"
	PermissionDenied   Status = "PERMISSION_DENIED"
	NotFound           Status = "NOT_FOUND"
	AlreadyExists      Status = "ALREADY_EXISTS"
	ResourceExhausted  Status = "RESOURCE_EXHAUSTED"
	Internal           Status = "INTERNAL"
	Unavailable        Status = "UNAVAILABLE"
)

// httpStatus is the single status → HTTP table (DESIGN.md, Requests).
var httpStatus = map[Status]int{
	InvalidArgument:    http.StatusBadRequest,
	FailedPrecondition: http.StatusBadRequest,
	PermissionDenied:   http.StatusForbidden,
	NotFound:           http.StatusNotFound,
	AlreadyExists:      http.StatusConflict,
	ResourceExhausted:  http.StatusTooManyRequests,
	Internal:           http.StatusInternalServerError,
	Unavailable:        http.StatusServiceUnavailable,
}

// HTTPStatus returns the HTTP status code for an error status.
func HTTPStatus(s Status) int {
	if code, ok := httpStatus[s]; ok {
		return code
	}
	return http.StatusInternalServerError
}

// StatusFromHTTP is the inverse of HTTPStatus for callers of internal routes
// that receive an error without a parsable envelope.
func StatusFromHTTP(code int) Status {
	for s, c := range httpStatus {
		if c == code && s != FailedPrecondition {
			return s
		}
	}
	return Internal
}

// Error is an error that carries the status and message the client sees.
type Error struct {
	Status  Status
	Message string
	// Details is optional structured context, sent as error.details.
	Details any
	// Cause is what made the request fail, for logs and errors.Is/As
	// (a transport error behind UNAVAILABLE, say); never sent.
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return string(e.Status) + ": " + e.Message + ": " + e.Cause.Error()
	}
	return string(e.Status) + ": " + e.Message
}

// Unwrap returns the cause, so errors.Is and errors.As see through e.
func (e *Error) Unwrap() error { return e.Cause }

// WithCause returns a copy of e caused by err.
func (e *Error) WithCause(err error) *Error {
	c := *e
	c.Cause = err
	return &c
}

// Errorf builds an *Error with a formatted message.
func Errorf(status Status, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// WithDetails returns a copy of e carrying details.
func (e *Error) WithDetails(details any) *Error {
	c := *e
	c.Details = details
	return &c
}

// AsError extracts the *Error in err's chain. A network failure (a store
// that cannot be reached or timed out) is UNAVAILABLE: the request may
// succeed when retried. Anything else is INTERNAL with a message that
// leaks nothing; ok reports whether err was already an *Error.
func AsError(err error) (apiErr *Error, ok bool) {
	if errors.As(err, &apiErr) {
		return apiErr, true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return errStoreUnavailable, false
	}
	return &Error{Status: Internal, Message: "internal error"}, false
}

var errStoreUnavailable = &Error{Status: Unavailable, Message: "a backing store is unavailable right now; retry in a few seconds"}

// RetryAfterSeconds is the Retry-After sent with UNAVAILABLE and
// RESOURCE_EXHAUSTED answers that do not set their own: rate limit windows
// are one second, and a store outage is not over sooner than a few.
func RetryAfterSeconds(s Status) string {
	switch s {
	case ResourceExhausted:
		return "1"
	case Unavailable:
		return "5"
	}
	return ""
}

// IsStatus reports whether err is an *Error with the given status.
func IsStatus(err error, s Status) bool {
	var apiErr *Error
	return errors.As(err, &apiErr) && apiErr.Status == s
}
