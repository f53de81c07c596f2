// Command memoryeval runs svc-memory's evaluation set (internal/evalset)
// with each retrieval mode and prints recall@5, MRR, suggest accuracy and
// cross-organization results, overall and per category.
//
//	go run ./cmd/memoryeval [-hybrid-only] [-dev-only] [-failures] [-thesaurus] [-documents organization|judgment]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/opencollab/backend/svc-memory/internal/evalset"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

func main() {
	failures := flag.Bool("failures", false, "list the failed dev cases of the hybrid mode")
	testFailures := flag.Bool("test-failures", false, "also list the failed held-out test cases (not while tuning)")
	hybridOnly := flag.Bool("hybrid-only", false, "run the hybrid mode only")
	thesaurus := flag.Bool("thesaurus", false, "turn on the lexical index's WordNet thesaurus (off by default)")
	documents := flag.String("documents", "", "replace the corpus's document ids: organization (one document per organization) or judgment (one per judgment)")
	devOnly := flag.Bool("dev-only", false, "print the dev split's figures only (while tuning: no row that contains held-out cases)")
	flag.Parse()
	modes := []string{memory.RetrievalVector, memory.RetrievalLexical, memory.RetrievalHybrid}
	if *hybridOnly {
		modes = modes[2:]
	}
	opt := evalset.Options{Thesaurus: *thesaurus, Documents: *documents}
	switch *documents {
	case "", evalset.DocumentsPerOrg, evalset.DocumentsPerJudgment:
	default:
		fmt.Fprintf(os.Stderr, "memoryeval: -documents %q: want organization or judgment\n", *documents)
		os.Exit(2)
	}
	if *devOnly {
		err := runDev(context.Background(), modes, opt, *failures)
		if err != nil {
			fmt.Fprintln(os.Stderr, "memoryeval:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(context.Background(), modes, opt, *failures, *testFailures); err != nil {
		fmt.Fprintln(os.Stderr, "memoryeval:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, modes []string, opt evalset.Options, listFailures, listTestFailures bool) error {
	set, err := evalset.Load()
	if err != nil {
		return err
	}
	printOptions(opt)
	fmt.Printf("evaluation set: %d judgments, %d cases; built-in embedder; goals recall@5 >= %.2f, suggest accuracy >= %.2f, 0 cross-organization results\n\n",
		len(set.Judgments), len(set.Cases), evalset.GoalRecall5, evalset.GoalSuggest)
	hybrid, err := runModes(ctx, set, modes, opt, func(mode string, m *evalset.Metrics) { printRow(mode, m) })
	if err != nil {
		return err
	}
	printParts("hybrid by split (tuned on dev only; test is held out):", hybrid.BySplit)
	printParts("hybrid by category:", hybrid.ByCategory)
	printParts("hybrid by file:", hybrid.ByFile)
	if listFailures {
		fmt.Printf("\nhybrid dev failures (%d):\n%s\n", len(hybrid.Failures), strings.Join(hybrid.Failures, "\n"))
	}
	if listTestFailures {
		fmt.Printf("\nhybrid test failures (%d):\n%s\n", len(hybrid.TestFailures), strings.Join(hybrid.TestFailures, "\n"))
	}
	return nil
}

// runDev prints each mode's dev split row and, for the hybrid mode, the dev
// split by category: the figures tuning may look at without seeing any
// held-out case, not even inside an overall mean.
func runDev(ctx context.Context, modes []string, opt evalset.Options, listFailures bool) error {
	set, err := evalset.Load()
	if err != nil {
		return err
	}
	printOptions(opt)
	fmt.Println("dev split only (-dev-only)")
	hybrid, err := runModes(ctx, set, modes, opt, func(mode string, m *evalset.Metrics) {
		printRow(mode+", dev split", m.BySplit[evalset.SplitDev])
	})
	if err != nil {
		return err
	}
	printParts("hybrid dev split by category:", hybrid.DevByCategory)
	if listFailures {
		fmt.Printf("\nhybrid dev failures (%d):\n%s\n", len(hybrid.Failures), strings.Join(hybrid.Failures, "\n"))
	}
	return nil
}

// runModes runs every mode, printing the table of modes through row, and
// returns the hybrid mode's metrics (modes always hold it).
func runModes(ctx context.Context, set *evalset.Set, modes []string, opt evalset.Options, row func(string, *evalset.Metrics)) (*evalset.Metrics, error) {
	fmt.Println("| mode | search cases | recall@5 | MRR | suggest cases | suggest accuracy | cross-organization results |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var hybrid *evalset.Metrics
	for _, mode := range modes {
		m, err := evalset.RunWith(ctx, set, mode, opt)
		if err != nil {
			return nil, err
		}
		row(mode, m)
		if mode == memory.RetrievalHybrid {
			hybrid = m
		}
	}
	return hybrid, nil
}

func printParts(title string, parts map[string]*evalset.Metrics) {
	fmt.Printf("\n%s\n\n", title)
	fmt.Println("| part | search cases | recall@5 | MRR | suggest cases | suggest accuracy | cross-organization results |")
	fmt.Println("|---|---|---|---|---|---|---|")
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		printRow(n, parts[n])
	}
}

func printRow(name string, m *evalset.Metrics) {
	fmt.Printf("| %s | %d | %.3f | %.3f | %d | %.3f | %d |\n", name, m.SearchCases, m.Recall5, m.MRR, m.SuggestCases, m.SuggestAcc, m.CrossOrg)
}

func printOptions(opt evalset.Options) {
	if opt.Thesaurus {
		fmt.Println("lexical index with the WordNet thesaurus (-thesaurus)")
	}
	if opt.Documents != "" {
		fmt.Printf("document ids replaced: one document per %s (-documents)\n", opt.Documents)
	}
}
