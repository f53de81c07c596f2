// Package evalset is svc-memory's retrieval evaluation: a corpus of review
// judgments in three organizations and labelled cases (query → judgments
// that should be found, decision that should be suggested), run through
// the real memory service (hybrid, vector-only or lexical-only retrieval,
// the built-in embedder, the embedded vector index) on an in-memory store.
// cmd/memoryeval prints the figures; the test in this package fails below
// the goals. testdata/README.md says how the cases were made.
package evalset

import (
	"bufio"
	"embed"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

//go:embed testdata/*.txt
var files embed.FS

// Judgment is one corpus judgment.
type Judgment struct {
	ID, Org, Topic, Decision, Document, Reviewer string
	AgeDays                                      int
	Reasoning, Content                           string
	// Annotation is the annotation thread; the corpus has none (its
	// grammar has no field for it), tests set it.
	Annotation string
}

// Case is one labelled query.
type Case struct {
	Category  string
	Workspace string // "empty" for the empty workspace
	Org       string // "" for the whole workspace
	// Expected are the judgment ids a search should find (empty: none).
	Expected []string
	// Suggest is approve, reject, none, or "" when the case is not a
	// suggest case.
	Suggest string
	Query   string
	File    string
	Line    int
	// Split is SplitDev or SplitTest (splitOf).
	Split string
}

// Set is the corpus and its cases.
type Set struct {
	Judgments []Judgment
	Cases     []Case
}

// Load reads the corpus and every cases file of testdata.
func Load() (*Set, error) {
	s := &Set{}
	if err := s.loadCorpus("testdata/corpus.txt"); err != nil {
		return nil, err
	}
	entries, err := files.ReadDir("testdata")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "cases") {
			if err := s.loadCases("testdata/" + e.Name()); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func lines(path string, fn func(line string, n int) error) error {
	f, err := files.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := fn(line, n); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

func (s *Set) loadCorpus(path string) error {
	var org, topic string
	return lines(path, func(line string, _ int) error {
		switch {
		case strings.HasPrefix(line, "@org "):
			org = strings.TrimSpace(line[5:])
		case strings.HasPrefix(line, "@topic "):
			topic = strings.TrimSpace(line[7:])
		case strings.HasPrefix(line, "J "):
			parts := strings.Split(line[2:], "|")
			f := strings.Fields(parts[0])
			if len(f) != 5 || len(parts) < 2 {
				return fmt.Errorf("want J id decision document age reviewer | reasoning [| content]")
			}
			age, err := strconv.Atoi(f[3])
			if err != nil {
				return err
			}
			j := Judgment{ID: f[0], Decision: f[1], Document: f[2], AgeDays: age, Reviewer: f[4],
				Org: org, Topic: topic, Reasoning: strings.TrimSpace(parts[1])}
			if len(parts) > 2 {
				j.Content = strings.TrimSpace(strings.Join(parts[2:], "|"))
			}
			s.Judgments = append(s.Judgments, j)
		default:
			return fmt.Errorf("unknown line %q", line)
		}
		return nil
	})
}

func (s *Set) loadCases(path string) error {
	return lines(path, func(line string, n int) error {
		head, query, ok := strings.Cut(line, "|")
		f := strings.Fields(head)
		if !ok || len(f) != 5 {
			return fmt.Errorf("want category workspace org expected suggest | query")
		}
		c := Case{Category: f[0], Workspace: f[1], Org: dash(f[2]), Suggest: dash(f[4]),
			Query: strings.TrimSpace(query), File: path, Line: n}
		c.Split = splitOf(c.Query)
		exp, err := s.expected(f[3], c.Org)
		if err != nil {
			return err
		}
		c.Expected = exp
		switch c.Suggest {
		case "", "approve", "reject", "none":
		default:
			return fmt.Errorf("suggest %q", c.Suggest)
		}
		s.Cases = append(s.Cases, c)
		return nil
	})
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

// expected resolves a topic (its judgments within org, when set) or a
// list of judgment ids.
func (s *Set) expected(spec, org string) ([]string, error) {
	if spec == "-" {
		return nil, nil
	}
	var out []string
	for _, j := range s.Judgments {
		if j.Topic == spec && (org == "" || j.Org == org) {
			out = append(out, j.ID)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	for _, id := range strings.Split(spec, ",") {
		if !s.has(id) {
			return nil, fmt.Errorf("expected %q is neither a topic nor a judgment id", spec)
		}
		out = append(out, id)
	}
	return out, nil
}

func (s *Set) has(id string) bool {
	for _, j := range s.Judgments {
		if j.ID == id {
			return true
		}
	}
	return false
}

// orgOf returns the organization of a judgment id.
func (s *Set) orgOf(id string) string {
	for _, j := range s.Judgments {
		if j.ID == id {
			return j.Org
		}
	}
	return ""
}

// The set is split into a development part, the only one whose failures
// are looked at while tuning, and a held-out test part that shows whether
// the tuning generalises. The split is a hash of the query text, so it
// does not depend on file order and adding cases does not move old ones.
const (
	SplitDev  = "dev"
	SplitTest = "test"
	// testShare is the share of cases (in tenths) in the test part.
	testShare = 3
)

func splitOf(query string) string {
	h := fnv.New32a()
	h.Write([]byte(query))
	if h.Sum32()%10 < testShare {
		return SplitTest
	}
	return SplitDev
}
