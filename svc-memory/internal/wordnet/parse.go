// Package wordnet reads the WordNet 3.0 database (the files of Debian's
// wordnet-base package, /usr/share/wordnet) and derives from it the
// compact thesaurus that internal/analysis embeds (Build). It runs only
// in cmd/lexicongen and in the test that checks the committed thesaurus;
// the service never reads WordNet at run time.
package wordnet

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultDir is where Debian's wordnet-base installs the database.
const DefaultDir = "/usr/share/wordnet"

// posFiles are the parts of speech and the suffix of their files.
var posFiles = []struct {
	pos  byte
	name string
}{{'n', "noun"}, {'v', "verb"}, {'a', "adj"}, {'r', "adv"}}

// key names a synset: its part of speech ('s', adjective satellites, is
// folded into 'a' as the pointers of the database do not distinguish
// them) and its byte offset in that part's data file.
type key struct {
	pos    byte
	offset uint32
}

// pointer is one relation of a synset. Word numbers are 1-based, 0 means
// the whole synset (a semantic relation).
type pointer struct {
	symbol         string
	target         key
	source, destNo int
}

// synset is one parsed line of a data file.
type synset struct {
	words    []string
	pointers []pointer
}

// database is what Build needs of WordNet: every synset, and each
// lemma's synsets per part of speech in the database's sense order (most
// frequent first).
type database struct {
	synsets map[key]*synset
	senses  map[string][][]key // lemma → per part of speech → synsets
	// exceptions map irregular inflections to their lemmas ("children" →
	// "child").
	exceptions map[string][]string
}

func load(dir string) (*database, error) {
	db := &database{synsets: map[key]*synset{}, senses: map[string][][]key{}, exceptions: map[string][]string{}}
	for i, pf := range posFiles {
		if err := eachLine(filepath.Join(dir, "data."+pf.name), db.addSynset); err != nil {
			return nil, err
		}
		if err := eachLine(filepath.Join(dir, "index."+pf.name), func(line string) error {
			return db.addIndex(line, i)
		}); err != nil {
			return nil, err
		}
		if err := eachLine(filepath.Join(dir, pf.name+".exc"), db.addException); err != nil {
			return nil, err
		}
	}
	return db, nil
}

// eachLine calls fn for every line that is not part of the license header
// (header lines start with two spaces).
func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "  ") {
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

func foldPos(p string) byte {
	if p == "s" {
		return 'a'
	}
	return p[0]
}

// addSynset parses "offset lex_filenum ss_type w_cnt word lex_id ...
// p_cnt [symbol offset pos source/target]... | gloss".
func (db *database) addSynset(line string) error {
	head, _, _ := strings.Cut(line, " | ")
	f := strings.Fields(head)
	if len(f) < 4 {
		return fmt.Errorf("short synset line")
	}
	off, err := strconv.ParseUint(f[0], 10, 32)
	if err != nil {
		return err
	}
	wcnt, err := strconv.ParseUint(f[3], 16, 16)
	if err != nil {
		return err
	}
	i := 4
	s := &synset{}
	for range wcnt {
		s.words = append(s.words, lemmaOf(f[i]))
		i += 2
	}
	pcnt, err := strconv.Atoi(f[i])
	if err != nil {
		return err
	}
	i++
	for range pcnt {
		p, err := parsePointer(f[i : i+4])
		if err != nil {
			return err
		}
		s.pointers = append(s.pointers, p)
		i += 4
	}
	db.synsets[key{foldPos(f[2]), uint32(off)}] = s
	return nil
}

func parsePointer(f []string) (pointer, error) {
	off, err := strconv.ParseUint(f[1], 10, 32)
	if err != nil {
		return pointer{}, err
	}
	st, err := strconv.ParseUint(f[3], 16, 16)
	if err != nil {
		return pointer{}, err
	}
	return pointer{symbol: f[0], target: key{foldPos(f[2]), uint32(off)},
		source: int(st >> 8), destNo: int(st & 0xff)}, nil
}

// lemmaOf lowercases a synset word and drops an adjective's syntactic
// marker ("galore(ip)").
func lemmaOf(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i]
	}
	return strings.ToLower(w)
}

// addIndex parses "lemma pos synset_cnt p_cnt [symbol]... sense_cnt
// tagsense_cnt offset...": the offsets are the lemma's senses, most
// frequent first.
func (db *database) addIndex(line string, posIdx int) error {
	f := strings.Fields(line)
	if len(f) < 6 {
		return fmt.Errorf("short index line")
	}
	pcnt, err := strconv.Atoi(f[3])
	if err != nil {
		return err
	}
	offs := f[4+pcnt+2:]
	keys := make([]key, 0, len(offs))
	for _, o := range offs {
		off, err := strconv.ParseUint(o, 10, 32)
		if err != nil {
			return err
		}
		keys = append(keys, key{foldPos(f[1]), uint32(off)})
	}
	per := db.senses[f[0]]
	if per == nil {
		per = make([][]key, len(posFiles))
		db.senses[f[0]] = per
	}
	per[posIdx] = keys
	return nil
}

// addException parses "inflected lemma [lemma...]".
func (db *database) addException(line string) error {
	f := strings.Fields(line)
	if len(f) < 2 {
		return fmt.Errorf("short exception line")
	}
	db.exceptions[f[0]] = append(db.exceptions[f[0]], f[1:]...)
	return nil
}
