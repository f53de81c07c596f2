package openapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"sync"
)

// The /docs page: a template, its style and a small renderer, with the
// document inlined, so the page needs nothing from the network.
var (
	//go:embed page/docs.html
	pageHTML []byte
	//go:embed page/docs.css
	pageCSS []byte
	//go:embed page/docs.js
	pageJS []byte

	pageOnce sync.Once
	page     []byte
)

// DocsPage is the HTML reference page built from Document.
func DocsPage() []byte {
	pageOnce.Do(func() {
		var doc any
		if err := json.Unmarshal(Document(), &doc); err != nil {
			panic(err)
		}
		// json.Marshal escapes <, > and &, so the document cannot close
		// the script element it sits in.
		spec, err := json.Marshal(doc)
		if err != nil {
			panic(err)
		}
		p := bytes.Replace(pageHTML, []byte("{{CSS}}"), pageCSS, 1)
		p = bytes.Replace(p, []byte("{{JS}}"), pageJS, 1)
		page = bytes.Replace(p, []byte("{{SPEC}}"), spec, 1)
	})
	return page
}
