package svcclient_test

import (
	"errors"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/svcclient"
)

func TestPassOnKeepsAnswersAndTurnsRefusalsInternal(t *testing.T) {
	plain := errors.New("decode reply: unexpected EOF")
	for name, tc := range map[string]struct {
		err  error
		keep []api.Status
		want api.Status // "" : the same error
	}{
		"nil":                {nil, nil, ""},
		"unavailable":        {api.Errorf(api.Unavailable, "down"), nil, ""},
		"kept status":        {api.Errorf(api.NotFound, "no agent"), []api.Status{api.NotFound}, ""},
		"no API error":       {plain, nil, ""},
		"refused":            {api.Errorf(api.PermissionDenied, "bad signature"), []api.Status{api.NotFound}, api.Internal},
		"not kept not found": {api.Errorf(api.NotFound, "no route"), nil, api.Internal},
	} {
		got := svcclient.PassOn(tc.err, "callee refused the call", tc.keep...)
		switch {
		case tc.want == "" && got != tc.err:
			t.Errorf("%s: %v, want the error as it was", name, got)
		case tc.want != "" && (!api.IsStatus(got, tc.want) || !errors.Is(got, tc.err)):
			t.Errorf("%s: %v, want %s wrapping it", name, got, tc.want)
		}
	}
}
