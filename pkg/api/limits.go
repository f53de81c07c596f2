package api

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Limit is a maximum that is part of the contract: the most items an array
// of a request body may hold. Each service declares its limits in one
// table (its limits.go) and names them in validate tags as max=@Name, so the
// number lives in one place and the API reference can be generated from
// the tables (Limits).
type Limit struct {
	Name string // e.g. "identity.users": service, then what is counted
	Max  int
	Doc  string // the fields it applies to, for the reference
}

var limits sync.Map // name → Limit

// RegisterLimits records a service's table. Registering a name again with
// another maximum panics: two services must not disagree on one limit.
func RegisterLimits(table ...Limit) {
	for _, l := range table {
		if prev, loaded := limits.LoadOrStore(l.Name, l); loaded && prev.(Limit).Max != l.Max {
			panic(fmt.Sprintf("api: limit %s registered as %d and %d", l.Name, prev.(Limit).Max, l.Max))
		}
	}
}

// Limits returns every registered limit, by name.
func Limits() []Limit {
	var out []Limit
	limits.Range(func(_, v any) bool {
		out = append(out, v.(Limit))
		return true
	})
	slices.SortFunc(out, func(a, b Limit) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// limitValue reads the number of a max= or min= rule: a literal, or @Name
// of a registered limit. An unknown name is a programming error.
func limitValue(val string) int {
	if name, ok := strings.CutPrefix(val, "@"); ok {
		l, found := limits.Load(name)
		if !found {
			panic("api: validate tag names unregistered limit " + name)
		}
		return l.(Limit).Max
	}
	n, _ := strconv.Atoi(val)
	return n
}
