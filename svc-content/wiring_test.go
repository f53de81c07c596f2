package svccontent

import (
	"testing"

	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// The annotations service rewrites the locations stored on annotations; if
// its method ever drifts from locations.Rewriter, locations/update would
// silently answer NOT_FOUND for every location.
func TestAnnotationsRewriteLocations(t *testing.T) {
	if _, ok := locationRewriter(&annotations.Service{}).(*annotations.Service); !ok {
		t.Fatal("locations/update does not use the annotations service")
	}
}
