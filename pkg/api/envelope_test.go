package api

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHTTPStatusTable(t *testing.T) {
	want := map[Status]int{
		InvalidArgument: 400, FailedPrecondition: 400, PermissionDenied: 403, NotFound: 404,
		AlreadyExists: 409, ResourceExhausted: 429, Internal: 500, Unavailable: 503, "BOGUS": 500,
	}
	for s, code := range want {
		if got := HTTPStatus(s); got != code {
			t.Errorf("HTTPStatus(%s) = %d, want %d", s, got, code)
		}
	}
}

func TestEnvelopeKeepsHTMLLiteral(t *testing.T) {
	w := httptest.NewRecorder()
	WriteJSON(w, 200, OK("a <b> & c", map[string]string{"html": "<p>x & y</p>"}))
	if want := `"html":"<p>x & y</p>"`; !strings.Contains(w.Body.String(), want) {
		t.Fatalf("body %s does not contain %s", w.Body.String(), want)
	}
	if b := ErrorEnvelope(Errorf(InvalidArgument, "field <x>")); !strings.Contains(string(b), "field <x>") {
		t.Fatalf("error envelope escaped HTML: %s", b)
	}
}
