// Package openapi is the OpenAPI 3.1 description of the gateway's public
// surface. It is written by hand, one YAML fragment per service under spec/,
// in a compact form (see spec/README.md): each operation names its request
// (`data`), its result, its extra error statuses and an example. Assemble
// turns that into the full document, adding what every operation shares the
// same way for all of them: the request envelope, the success and error
// envelopes, the error statuses the gateway itself can give and the
// security schemes. The gateway serves the result at GET /openapi.json and a
// page rendering it at GET /docs; docs/api-reference.md is generated from it.
package openapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed spec/*.yaml
var specFS embed.FS

// Operation is one documented operation, as the drift tests see it.
type Operation struct {
	Method string // "POST" or "GET"
	Path   string
	// Auth: "workspace", "operator", "realtime" or "none".
	Auth string
	Tag  string
}

var (
	once     sync.Once
	document []byte
	ops      []Operation
	loadErr  error
)

// Document is the assembled OpenAPI document as indented JSON. It panics
// when the embedded fragments do not assemble, which the package's tests
// rule out before any build ships.
func Document() []byte {
	load()
	if loadErr != nil {
		panic(loadErr)
	}
	return document
}

// Operations lists every documented operation, sorted by path.
func Operations() []Operation {
	load()
	if loadErr != nil {
		panic(loadErr)
	}
	return append([]Operation(nil), ops...)
}

func load() {
	once.Do(func() {
		doc, list, err := Assemble(specFS)
		if err != nil {
			loadErr = err
			return
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		if err := enc.Encode(doc); err != nil {
			loadErr = err
			return
		}
		document, ops = buf.Bytes(), list
	})
}

// Assemble builds the document from spec/base.yaml and the other
// spec/*.yaml fragments of fsys.
func Assemble(fsys fs.FS) (map[string]any, []Operation, error) {
	var base map[string]any
	if err := readYAML(fsys, "spec/base.yaml", &base); err != nil {
		return nil, nil, err
	}
	components, _ := base["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	responses := map[string]any{}
	components["responses"] = responses
	paths := map[string]any{}
	var list []Operation
	var tags []any
	names, err := fs.Glob(fsys, "spec/*.yaml")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "spec/base.yaml" {
			continue
		}
		var f fragment
		if err := readYAML(fsys, name, &f); err != nil {
			return nil, nil, err
		}
		for _, t := range f.Tags {
			tags = append(tags, map[string]any{"name": t.Name, "description": t.Description})
		}
		for k, v := range f.Schemas {
			if _, dup := schemas[k]; dup {
				return nil, nil, fmt.Errorf("%s: schema %s is defined twice", name, k)
			}
			schemas[k] = v
		}
		for path, op := range f.Operations {
			method, built, err := op.build(path, responses)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %s: %w", name, path, err)
			}
			item, _ := paths[path].(map[string]any)
			if item == nil {
				item = map[string]any{}
				paths[path] = item
			}
			if _, dup := item[method]; dup {
				return nil, nil, fmt.Errorf("%s: %s %s is described twice", name, method, path)
			}
			item[method] = built
			list = append(list, Operation{Method: strings.ToUpper(method), Path: path, Auth: op.auth(), Tag: op.Tag})
		}
	}
	closeRequests(paths, schemas)
	closeResponses(paths, schemas)
	base["tags"] = append(tagsOf(base), tags...)
	base["paths"] = paths
	sort.Slice(list, func(i, j int) bool {
		if list[i].Path != list[j].Path {
			return list[i].Path < list[j].Path
		}
		return list[i].Method < list[j].Method
	})
	return base, list, nil
}

func tagsOf(base map[string]any) []any {
	t, _ := base["tags"].([]any)
	return t
}

// fragment is one service's spec/*.yaml.
type fragment struct {
	Tags []struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	} `yaml:"tags"`
	Schemas    map[string]any    `yaml:"schemas"`
	Operations map[string]opSpec `yaml:"operations"`
}

func readYAML(fsys fs.FS, name string, out any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
