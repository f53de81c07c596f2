package lexical

import (
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// With the thesaurus a query finds a judgment through a WordNet synonym
// that the hand lexicon lacks ("automobile" / "car"), ranked below one
// with the word itself; without it (the default) it does not.
func TestThesaurusMatchesSynonyms(t *testing.T) {
	t.Parallel()
	docs := []Doc{
		judgmentDoc("car", "o1", "rejected: the car photo has no source"),
		judgmentDoc("automobile", "o1", "rejected: the automobile photo has no source"),
		judgmentDoc("tone", "o1", "rejected: tone is too informal"),
	}
	f := vector.Filter{WorkspaceID: "ws", OrganizationID: "o1"}
	plain := New()
	plain.Upsert(docs...)
	if got := ids(plain.Search("automobile", f, 5, ReviewWeights)); !slices.Equal(got, []string{"automobile"}) {
		t.Errorf("without the thesaurus: %v, want [automobile]", got)
	}
	th := New(WithThesaurus())
	th.Upsert(docs...)
	if got := ids(th.Search("automobile", f, 5, ReviewWeights)); !slices.Equal(got, []string{"automobile", "car"}) {
		t.Errorf("with the thesaurus: %v, want [automobile car]", got)
	}
}
