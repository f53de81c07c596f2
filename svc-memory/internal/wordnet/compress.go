package wordnet

import (
	"bytes"
	"compress/gzip"
)

// Compress gzips the thesaurus text with an empty header (no name, no
// time), so the same text gives the same file.
func Compress(text []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(text); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
