package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/opencollab/backend/gateway/openapi"
	"github.com/opencollab/backend/pkg/api"
)

// The batch limits of the document (maxItems of arrays marked x-limit)
// are the services' limit tables (api.Limits, registered by the services
// this binary links): every marked array has its table's maximum, and every
// limit of a table is documented at least once.
func TestOpenAPIMaxItemsAreTheServiceLimits(t *testing.T) {
	table := map[string]int{}
	for _, l := range api.Limits() {
		table[l.Name] = l.Max
	}
	if len(table) == 0 {
		t.Fatal("no limits registered: the services' tables are not linked")
	}
	var doc any
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	used := map[string]int{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if name, ok := v["x-limit"].(string); ok {
				used[name]++
				max, known := table[name]
				got, _ := v["maxItems"].(float64)
				switch {
				case !known:
					t.Errorf("%s: x-limit %s is not a registered limit", path, name)
				case int(got) != max:
					t.Errorf("%s: maxItems %v, limit %s is %d", path, v["maxItems"], name, max)
				}
			}
			for k, x := range v {
				walk(path+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", path, i), x)
			}
		}
	}
	walk("", doc)
	for name := range table {
		if used[name] == 0 {
			t.Errorf("limit %s is in no request schema of the document (mark the array: maxItems, x-limit: %s)", name, name)
		}
	}
}
