package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/opencollab/backend/gateway/openapi"
)

// Every request the e2e tests send through the gateway (stack.raw) and its
// answer are checked against the served OpenAPI 3.1 document with
// kin-openapi (JSON Schema 2020-12 validation for 3.1 documents):
//
//   - the answer must match the operation's response for its status, and
//     that status must be one the operation documents;
//   - a request the document refuses must not succeed (the tests send
//     malformed requests on purpose; those must be answered with an
//     error, which is then checked like any answer);
//   - a path the document does not have must not succeed either.
var (
	contractOnce sync.Once
	contract     *apiContract
	contractErr  error
)

type apiContract struct {
	router routers.Router
	mu     sync.Mutex
}

// recordCoverage appends the operation an exchange used to the file named
// by OPENAPI_COVERAGE_FILE, when set, to see which operations the e2e
// traffic exercises (sort -u the file).
func (c *apiContract) recordCoverage(op string) {
	name := os.Getenv("OPENAPI_COVERAGE_FILE")
	if name == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, op)
		f.Close()
	}
}

func loadContract() (*apiContract, error) {
	contractOnce.Do(func() {
		doc, err := openapi3.NewLoader().LoadFromData(openapi.Document())
		if err != nil {
			contractErr = err
			return
		}
		doc.Servers = nil // match any host: the stacks listen on free ports
		r, err := gorillamux.NewRouter(doc)
		if err != nil {
			contractErr = err
			return
		}
		contract = &apiContract{router: r}
	})
	return contract, contractErr
}

// check returns what is wrong with one exchange, or nil.
func (c *apiContract) check(req *http.Request, reqBody []byte, code int, header http.Header, respBody []byte) error {
	ok := code >= 200 && code < 300
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		if ok {
			return fmt.Errorf("%s %s succeeded (%d) but is not in the OpenAPI document", req.Method, req.URL.Path, code)
		}
		return nil
	}
	c.recordCoverage(req.Method + " " + route.Path)
	ctx := context.Background()
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil && ok {
		return fmt.Errorf("%s %s: the service accepted (%d) a request the OpenAPI document refuses: %v\nrequest: %s", req.Method, req.URL.Path, code, err, reqBody)
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: code, Header: header, Body: io.NopCloser(bytes.NewReader(respBody)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("%s %s: the answer does not match the OpenAPI document: %v\nrequest: %s\nanswer (%d): %s", req.Method, req.URL.Path, err, reqBody, code, respBody)
	}
	return nil
}

// contractError says how an exchange of stack.raw breaks the document.
func (s *stack) contractError(req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) error {
	c, err := loadContract()
	if err != nil {
		return fmt.Errorf("load the OpenAPI document: %w", err)
	}
	return c.check(req, reqBody, resp.StatusCode, resp.Header, respBody)
}
