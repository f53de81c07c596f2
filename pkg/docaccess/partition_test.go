package docaccess_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/docaccess"
)

func TestPartitionKeepsTheOrderOfTheUsersAsked(t *testing.T) {
	t.Parallel()
	with, without := docaccess.Partition([]string{"u3", "u1", "u4", "u2"}, []string{"u2", "u3", "u9"})
	if !slices.Equal(with, []string{"u3", "u2"}) || !slices.Equal(without, []string{"u1", "u4"}) {
		t.Fatalf("with %v, without %v; want [u3 u2], [u1 u4]", with, without)
	}
	if with, without := docaccess.Partition(nil, []string{"u1"}); with != nil || without != nil {
		t.Fatalf("no users asked: with %v, without %v; want none", with, without)
	}
}

func TestNameUsersListsTheFirstTenAndCountsTheRest(t *testing.T) {
	t.Parallel()
	if got := docaccess.NameUsers([]string{"a", "b"}); got != "a, b" {
		t.Fatalf("NameUsers(a, b) = %q", got)
	}
	ids := make([]string, docaccess.MaxNamed+3)
	for i := range ids {
		ids[i] = fmt.Sprint("u", i)
	}
	want := "u0, u1, u2, u3, u4, u5, u6, u7, u8, u9 and 3 more"
	if got := docaccess.NameUsers(ids); got != want {
		t.Fatalf("NameUsers of 13 ids = %q, want %q", got, want)
	}
}
