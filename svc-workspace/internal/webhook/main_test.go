// Left out of the fuzz build (scripts/test.sh fuzzes with -tags fuzzonly):
// these tests need pkg/testenv's stores, and `go test -fuzz` compiles every
// package of its test binary instrumented, the MongoDB driver and the
// embedded stores included, for a target that needs none of them.

//go:build !fuzzonly

package webhook_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
