package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// wrapped is an optional[T]-like field: its JSON is a T, held inside.
type wrapped[T any] struct{ v T }

func (w *wrapped[T]) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &w.v) }
func (*wrapped[T]) JSONShape() any                 { var v T; return v }
func (w wrapped[T]) Wrapped() any                  { return w.v }

type boundedItem struct {
	Tags []string `json:"tags" validate:"max=@test.bounded"`
	Bare []int    `json:"bare"`
}

type boundedRequest struct {
	Named   []boundedItem     `json:"named" validate:"max=@test.bounded"`
	Literal []string          `json:"literal" validate:"max=5"`
	Free    json.RawMessage   `json:"free"`
	Patch   wrapped[[]string] `json:"patch"`
	Ptr     *[]string         `json:"ptr"`
}

func TestUnboundedArraysNamesEveryArrayWithoutANamedLimit(t *testing.T) {
	RegisterLimits(Limit{Name: "test.bounded", Max: 2, Doc: "test"})
	recordRequestType(reflect.TypeFor[*boundedRequest]())
	var got []string
	for _, u := range UnboundedArrays() {
		if strings.Contains(u, "boundedRequest") {
			got = append(got, u[strings.Index(u, "boundedRequest"):])
		}
	}
	want := []string{
		"boundedRequest.literal ([]string): no max=@limit",
		"boundedRequest.named[].bare ([]int): no max=@limit",
		"boundedRequest.patch ([]string): no max=@limit",
		"boundedRequest.ptr ([]string): no max=@limit",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("UnboundedArrays =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type patchRequest struct {
	Patch wrapped[[]string] `json:"patch" validate:"max=@test.bounded"`
}

func TestValidateAppliesAMaximumToAWrappedArray(t *testing.T) {
	RegisterLimits(Limit{Name: "test.bounded", Max: 2, Doc: "test"})
	err := DecodeBytes([]byte(`{"data":{"patch":["a","b","c"]}}`), &patchRequest{}, DecodeOptions{})
	if err == nil || !strings.Contains(err.Error(), "field patch accepts at most 2 items") {
		t.Fatalf("err = %v", err)
	}
	if err := DecodeBytes([]byte(`{"data":{"patch":["a","b"]}}`), &patchRequest{}, DecodeOptions{}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
}
