package analysis

import (
	"strings"
	"testing"
)

// Expected stems from the Snowball project's published English
// vocabulary/output pairs (snowballstem.org/algorithms/english) and the
// algorithm's worked examples.
func TestStemMatchesSnowball(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"consign": "consign", "consigned": "consign", "consigning": "consign", "consignment": "consign",
		"consist": "consist", "consisted": "consist", "consistency": "consist", "consistent": "consist",
		"consistently": "consist", "consisting": "consist", "consists": "consist", "consolation": "consol",
		"knack": "knack", "knackeries": "knackeri", "knaves": "knave", "knavish": "knavish", "kneaded": "knead",
		"kneel": "kneel", "knelt": "knelt", "knife": "knife", "knight": "knight", "knightly": "knight",
		"caresses": "caress", "ponies": "poni", "ties": "tie", "cats": "cat", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "hopping": "hop", "tanned": "tan", "falling": "fall",
		"hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file", "happy": "happi", "sky": "sky",
		"generously": "generous", "generation": "generat", "communism": "communism", "skies": "sky",
		"dying": "die", "news": "news", "proceed": "proceed", "succeeding": "succeed",
		"cited": "cite", "citation": "citat", "citations": "citat", "claims": "claim", "medical": "medic",
		"treated": "treat", "treatment": "treatment", "approved": "approv", "rejected": "reject",
	}
	for in, want := range cases {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func stems(terms []Term) string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.Stem
	}
	return strings.Join(out, " ")
}

func TestAnalyzeMarksNegationScope(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"No citation for the revenue claim":                    "no !citat !revenu !claim",
		"The citation is missing. Revenue claim is fine":       "!citat missing revenu claim fine",
		"Approved with a citation to the 2023 study":           "approv citat 2023 studi",
		"The source citation is missing for the revenue claim": "!sourc !citat missing revenu claim",
		"doesn't include a disclaimer":                         "doesn't !includ !disclaim",
	}
	for in, want := range cases {
		if got := stems(Analyze(in)); got != want {
			t.Errorf("Analyze(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPhrasePositionsSkipFunctionWords(t *testing.T) {
	t.Parallel()
	terms := Analyze("source of the claim")
	if len(terms) != 2 || terms[1].Pos-terms[0].Pos != 1 {
		t.Fatalf("positions %+v: want adjacent source, claim", terms)
	}
}

func TestLexiconJoinsNearSynonyms(t *testing.T) {
	t.Parallel()
	same := [][2]string{{"health", "medical"}, {"cure", "treat"}, {"cures", "treatment"}, {"citation", "source"}}
	for _, p := range same {
		a, b := ConceptOf(p[0]), ConceptOf(p[1])
		if a == "" || a != b {
			t.Errorf("ConceptOf(%q) = %q, ConceptOf(%q) = %q: want one concept", p[0], a, p[1], b)
		}
	}
	if ConceptOf("citation") == ConceptOf("health") {
		t.Error("unrelated words share a concept")
	}
	if ConceptOf("banana") != "" {
		t.Error("a word outside the lexicon has a concept")
	}
}
