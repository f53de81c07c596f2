// Command lexicongen derives svc-memory's built-in thesaurus from WordNet
// 3.0 (Debian: apt-get install wordnet-base) and writes it gzip-compressed
// where internal/analysis embeds it:
//
//	go run ./cmd/lexicongen [-wordnet /usr/share/wordnet] [-out internal/analysis/thesaurus.txt.gz]
//
// The output depends only on the database and the options in
// wordnet.DefaultOptions; a test checks the committed file against it when
// WordNet is installed.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/opencollab/backend/svc-memory/internal/wordnet"
)

func main() {
	dir := flag.String("wordnet", wordnet.DefaultDir, "WordNet 3.0 database directory")
	out := flag.String("out", "internal/analysis/thesaurus.txt.gz", "file to write")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "lexicongen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	text, err := wordnet.Build(dir, wordnet.DefaultOptions)
	if err != nil {
		return fmt.Errorf("%w (install WordNet: apt-get install wordnet-base)", err)
	}
	gz, err := wordnet.Compress(text)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, gz, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d bytes (%d uncompressed)\n", out, len(gz), len(text))
	return nil
}
