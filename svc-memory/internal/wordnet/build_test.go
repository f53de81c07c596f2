package wordnet

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/analysis"
)

// The committed thesaurus is what the generator writes from the installed
// WordNet (compared uncompressed: gzip's bytes may differ between Go
// releases). Skipped where WordNet is not installed.
func TestCommittedThesaurusMatchesGenerator(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		t.Skipf("WordNet not installed (apt-get install wordnet-base): %v", err)
	}
	want, err := Build(DefaultDir, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	got, err := analysis.ThesaurusText()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("internal/analysis/thesaurus.txt.gz differs from the generator's output (%d vs %d bytes): run go run ./cmd/lexicongen", len(got), len(want))
	}
}

// A tiny database in WordNet's file format: two synsets of "cure"
// (heal and the rare preserving sense), one of "heal", one of "remedy"
// (the hypernym of the first), an exception "cured". The thesaurus keeps
// the frequent sense only, the hypernym as a related concept, and the
// concepts at least two words share.
func TestBuildFromTinyDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"data.verb": "00000100 29 v 02 cure 0 heal 0 001 @ 00000300 v 0000 | provide a cure for\n" +
			"00000200 30 v 01 cure 1 000 | preserve meat\n" +
			"00000300 29 v 01 remedy 0 000 | set right\n",
		"index.verb": "cure v 2 1 @ 2 1 00000100 00000200  \nheal v 1 1 @ 1 1 00000100  \nremedy v 1 0 1 1 00000300  \n",
		"verb.exc":   "cured cure\n",
	}
	for _, pos := range []string{"noun", "adj", "adv"} {
		files["data."+pos], files["index."+pos], files[pos+".exc"] = "", "", ""
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := Build(dir, Options{Senses: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"# thesaurus derived from WordNet 3.0 by cmd/lexicongen: 4 words, 2 concepts",
		"cure\t0\t1", "cured\t0\t1", "heal\t0\t1", "remedy\t1\t", "",
	}, "\n")
	if string(out) != want {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
}
