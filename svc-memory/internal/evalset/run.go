package evalset

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/opencollab/backend/svc-memory/internal/embed"
	"github.com/opencollab/backend/svc-memory/internal/judgment"
	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/memory"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// Goals of the built-in set with the built-in embedder (issue: memory that
// finds what reviewers meant).
const (
	GoalRecall5 = 0.9
	GoalSuggest = 0.9
)

// Workspace is the workspace holding the corpus; EmptyWorkspace has none.
const (
	Workspace      = "main"
	EmptyWorkspace = "empty"
	searchDepth    = 10
	recallDepth    = 5
)

// Metrics are one retrieval mode's figures.
type Metrics struct {
	Mode         string
	SearchCases  int
	Recall5      float64 // mean over cases with expected judgments
	MRR          float64
	SuggestCases int
	SuggestAcc   float64
	// CrossOrg counts search results and suggestion evidence from an
	// organization other than the one the case names.
	CrossOrg   int
	ByCategory map[string]*Metrics
	ByFile     map[string]*Metrics
	BySplit    map[string]*Metrics
	// DevByCategory is ByCategory over the dev split only.
	DevByCategory map[string]*Metrics
	// Failures are the failed cases of the dev split; TestFailures those
	// of the test split (not to be looked at while tuning).
	Failures     []string
	TestFailures []string
}

// Options vary the service the evaluation runs beyond its defaults.
type Options struct {
	// Thesaurus turns on the lexical index's WordNet thesaurus
	// (lexical.WithThesaurus).
	Thesaurus bool
	// Documents replaces the corpus's document ids, to measure what the
	// document links (memory's judgment links) rest on: DocumentsPerOrg
	// puts every judgment of an organization on one document (a document
	// that carries every point), DocumentsPerJudgment each on its own.
	Documents string
}

// Options.Documents values; "" keeps the corpus's documents.
const (
	DocumentsPerOrg      = "organization"
	DocumentsPerJudgment = "judgment"
)

// documentOf is j's document under opt.Documents.
func documentOf(j Judgment, opt Options) string {
	switch opt.Documents {
	case DocumentsPerOrg:
		return j.Org
	case DocumentsPerJudgment:
		return j.ID
	}
	return j.Document
}

// Run builds the memory service for mode (memory.RetrievalHybrid, Vector
// or Lexical) on the built-in embedder with the default settings, ingests
// the corpus and runs every case.
func Run(ctx context.Context, set *Set, mode string) (*Metrics, error) {
	return RunWith(ctx, set, mode, Options{})
}

// RunWith is Run with options.
func RunWith(ctx context.Context, set *Set, mode string, opt Options) (*Metrics, error) {
	svc, err := newService(ctx, set, mode, opt)
	if err != nil {
		return nil, err
	}
	m := &Metrics{Mode: mode, ByCategory: map[string]*Metrics{}, ByFile: map[string]*Metrics{},
		BySplit: map[string]*Metrics{}, DevByCategory: map[string]*Metrics{}}
	for _, c := range set.Cases {
		parts := []*Metrics{part(m.ByCategory, c.Category), part(m.ByFile, c.File), part(m.BySplit, c.Split)}
		if c.Split == SplitDev {
			parts = append(parts, part(m.DevByCategory, c.Category))
		}
		if err := runCase(ctx, svc, set, c, m, parts...); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", c.File, c.Line, err)
		}
	}
	m.finish()
	for _, parts := range []map[string]*Metrics{m.ByCategory, m.ByFile, m.BySplit, m.DevByCategory} {
		for _, p := range parts {
			p.finish()
		}
	}
	return m, nil
}

// now is the evaluation's fixed clock: ages in the corpus count back from
// it, so recency weighting is reproducible.
var now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func newService(ctx context.Context, set *Set, mode string, opt Options) (*memory.Service, error) {
	emb := embed.NewHashing(embed.DefaultDim)
	review, err := vector.NewEmbedded(vector.Options{Dim: emb.Dim()})
	if err != nil {
		return nil, err
	}
	content, err := vector.NewEmbedded(vector.Options{Dim: emb.Dim()})
	if err != nil {
		return nil, err
	}
	st := newMemStore()
	var lexOpts []lexical.Option
	if opt.Thesaurus {
		lexOpts = append(lexOpts, lexical.WithThesaurus())
	}
	svc := memory.NewService(memory.Deps{
		Store: st, Review: review, Content: content, Embedder: emb, Model: emb.Model(),
		Lexical: lexical.New(lexOpts...), Retrieval: mode, Now: func() time.Time { return now },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	for _, j := range set.Judgments {
		_, _, err := st.SaveJudgment(ctx, Workspace, judgment.Judgment{
			RecordID: j.ID, OrganizationID: j.Org, DocumentID: documentOf(j, opt), AnnotationID: j.Annotation, Decision: j.Decision,
			Reasoning: j.Reasoning, Content: j.Content, Confidence: 1, ContentType: judgment.DefaultContentType,
			JudgeType: judgment.JudgeHuman, Reviewer: judgment.User{UserID: j.Reviewer, Name: j.Reviewer},
			CreatedAt: now.Add(-time.Duration(j.AgeDays) * 24 * time.Hour).UnixMilli(),
		}, 0)
		if err != nil {
			return nil, err
		}
	}
	if _, err := svc.Sweep(ctx); err != nil {
		return nil, err
	}
	return svc, nil
}

func part(parts map[string]*Metrics, name string) *Metrics {
	p := parts[name]
	if p == nil {
		p = &Metrics{Mode: name}
		parts[name] = p
	}
	return p
}

func workspaceOf(c Case) string {
	if c.Workspace == EmptyWorkspace {
		return EmptyWorkspace
	}
	return Workspace
}

func runCase(ctx context.Context, svc *memory.Service, set *Set, c Case, all *Metrics, parts ...*Metrics) error {
	every := append([]*Metrics{all}, parts...)
	limit := searchDepth
	res, err := svc.Search(ctx, workspaceOf(c), memory.SearchRequest{Query: c.Query, OrganizationID: c.Org, Limit: &limit})
	if err != nil {
		return err
	}
	var got []string
	for _, r := range res.Results {
		got = append(got, r.RecordID)
		if c.Org != "" && r.OrganizationID != c.Org {
			for _, m := range every {
				m.CrossOrg++
			}
			all.fail(c, "search leaked %s of %s", r.RecordID, r.OrganizationID)
		}
	}
	if len(c.Expected) > 0 {
		recall, rr := scoreSearch(got, c.Expected)
		for _, m := range every {
			m.SearchCases++
			m.Recall5 += recall
			m.MRR += rr
		}
		if recall < 1 {
			all.fail(c, "recall@5 %.2f: got %v, want %v", recall, got[:min(len(got), recallDepth)], c.Expected)
		}
	}
	if c.Suggest == "" {
		return nil
	}
	sg, err := svc.Suggest(ctx, workspaceOf(c), memory.SuggestRequest{Query: c.Query, OrganizationID: c.Org})
	if err != nil {
		return err
	}
	answer := "none"
	if sg.Primary != nil {
		answer = sg.Primary.Recommendation
		for _, ev := range slices.Concat(sg.Primary.Evidence, conflictEvidence(sg)) {
			if c.Org != "" && set.orgOf(ev.RecordID) != c.Org {
				for _, m := range every {
					m.CrossOrg++
				}
				all.fail(c, "suggest leaked %s", ev.RecordID)
			}
		}
	}
	for _, m := range every {
		m.SuggestCases++
		if answer == c.Suggest {
			m.SuggestAcc++
		}
	}
	if answer != c.Suggest {
		all.fail(c, "suggest %s, want %s", answer, c.Suggest)
	}
	return nil
}

func conflictEvidence(sg memory.SuggestResponse) []memory.Evidence {
	if sg.Conflict == nil {
		return nil
	}
	return sg.Conflict.Evidence
}

// scoreSearch is recall@5 (of at most 5 expected) and the reciprocal rank
// of the first expected judgment within the top 10.
func scoreSearch(got, want []string) (recall, rr float64) {
	found := 0
	for i, id := range got {
		if !slices.Contains(want, id) {
			continue
		}
		if rr == 0 {
			rr = 1 / float64(i+1)
		}
		if i < recallDepth {
			found++
		}
	}
	return float64(found) / float64(min(len(want), recallDepth)), rr
}

func (m *Metrics) fail(c Case, format string, args ...any) {
	list := &m.Failures
	if c.Split == SplitTest {
		list = &m.TestFailures
	}
	*list = append(*list, fmt.Sprintf("%s:%d [%s] %q: %s", c.File, c.Line, c.Category, c.Query, fmt.Sprintf(format, args...)))
}

func (m *Metrics) finish() {
	if m.SearchCases > 0 {
		m.Recall5 /= float64(m.SearchCases)
		m.MRR /= float64(m.SearchCases)
	}
	if m.SuggestCases > 0 {
		m.SuggestAcc /= float64(m.SuggestCases)
	}
}
