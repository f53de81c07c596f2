package check

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction with its continuation lines joined.
type instruction struct {
	cmd  string // upper case: FROM, COPY, RUN, ...
	args string
	line int
}

// parseDockerfile splits a Dockerfile into instructions: comments and blank lines dropped,
// lines ending in a backslash joined with the next one. Enough for the files we write (no
// heredocs, default escape character).
func parseDockerfile(t *testing.T, name string) []instruction {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []instruction
	var cur strings.Builder
	start := 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if cur.Len() == 0 {
			start = n
		}
		cont := strings.HasSuffix(line, `\`)
		cur.WriteString(strings.TrimSuffix(line, `\`))
		cur.WriteString(" ")
		if cont {
			continue
		}
		cmd, args, _ := strings.Cut(strings.TrimSpace(cur.String()), " ")
		out = append(out, instruction{cmd: strings.ToUpper(cmd), args: strings.Join(strings.Fields(args), " "), line: start})
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur.Len() != 0 {
		t.Fatalf("%s: last instruction ends with a line continuation", name)
	}
	return out
}

// copySources returns the source paths of a COPY/ADD without flags, or nil for COPY --from
// (files from another stage, not from the build context).
func copySources(args string) []string {
	var words []string
	for _, w := range strings.Fields(args) {
		if strings.HasPrefix(w, "--from=") {
			return nil
		}
		if !strings.HasPrefix(w, "--") {
			words = append(words, w)
		}
	}
	if len(words) < 2 {
		return nil
	}
	return words[:len(words)-1]
}

// copied reports whether some COPY in ins takes file (a slash path from the repository root)
// from the build context, directly, by glob or as part of a copied directory.
func copied(ins []instruction, file string) bool {
	for _, in := range ins {
		if in.cmd != "COPY" {
			continue
		}
		for _, src := range copySources(in.args) {
			src = strings.TrimPrefix(path.Clean(src), "./")
			if ok, _ := path.Match(src, file); ok || src == "." || strings.HasPrefix(file, src+"/") {
				return true
			}
		}
	}
	return false
}

// TestDockerfile checks the one Dockerfile, as built for each service
// (its SERVICE argument substituted), and that no per-service copy is back.
func TestDockerfile(t *testing.T) {
	root := repoRoot(t)
	modules := workModules(t)
	ins := parseDockerfile(t, filepath.Join(root, "Dockerfile"))
	for _, svc := range deployedServices(t) {
		t.Run(svc, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(root, svc, "Dockerfile")); err == nil {
				t.Errorf("%s/Dockerfile: services share the root Dockerfile (--build-arg SERVICE=%s)", svc, svc)
			}
			checkDockerfile(t, svc, modules, withArg(ins, "SERVICE", svc))
		})
	}
}

// withArg substitutes ${name} and $name with value in every instruction.
func withArg(ins []instruction, name, value string) []instruction {
	out := make([]instruction, len(ins))
	r := strings.NewReplacer("${"+name+"}", value, "$"+name, value)
	for i, in := range ins {
		in.args = r.Replace(in.args)
		out[i] = in
	}
	return out
}

// serviceVersion is svc/VERSION.
func serviceVersion(t *testing.T, svc string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), svc, "VERSION"))
	if err != nil {
		t.Fatalf("%s has no VERSION: %v", svc, err)
	}
	return strings.TrimSpace(string(b))
}

func checkDockerfile(t *testing.T, svc string, modules []string, ins []instruction) {
	var froms []instruction
	lastFrom, download, build := -1, -1, -1
	for i, in := range ins {
		switch {
		case in.cmd == "FROM":
			froms = append(froms, in)
			lastFrom = i
		case in.cmd == "RUN" && strings.Contains(in.args, "go mod download"):
			download = i
		case in.cmd == "RUN" && strings.Contains(in.args, "go build"):
			build = i
		}
	}
	if len(froms) < 2 {
		t.Fatalf("want a multi-stage build, got %d FROM", len(froms))
	}
	if !strings.HasPrefix(froms[0].args, "golang:1.26") {
		t.Errorf("build stage is FROM %q, want golang:1.26-*", froms[0].args)
	}
	if final := froms[len(froms)-1].args; !strings.HasPrefix(final, "gcr.io/distroless/static") || !strings.Contains(final, "nonroot") {
		t.Errorf("final stage is FROM %q, want gcr.io/distroless/static-*:nonroot", final)
	}

	// The go.mod of every module in go.work must be in the image before `go mod download`,
	// or the go command rejects the workspace.
	if download < 0 {
		t.Fatal("no RUN go mod download")
	}
	before := ins[:download]
	if !copied(before, "go.work") {
		t.Error("go.work is not copied before go mod download")
	}
	for _, m := range modules {
		if !copied(before, m+"/go.mod") {
			t.Errorf("%s/go.mod (a module in go.work) is not copied before go mod download; add `COPY %s/go.* %s/` to every Dockerfile", m, m, m)
		}
	}

	if build < 0 {
		t.Fatal("no RUN go build")
	}
	b := ins[build]
	for _, want := range []string{"./" + svc + "/cmd/" + svc, "-trimpath", "-o /out/app"} {
		if !strings.Contains(b.args, want) {
			t.Errorf("line %d: go build lacks %q: %s", b.line, want, b.args)
		}
	}
	if !cgoDisabled(ins[:build+1]) {
		t.Error("CGO_ENABLED=0 is not set for go build (the distroless static image has no libc)")
	}
	if build < download {
		t.Error("go build runs before go mod download")
	}
	for _, src := range []string{"pkg/api/x.go", svc + "/cmd/" + svc + "/main.go"} {
		if !copied(ins[download:build], src) {
			t.Errorf("sources %s are not copied between go mod download and go build", path.Dir(src))
		}
	}

	checkFinalStage(t, ins[lastFrom:])
}

func cgoDisabled(ins []instruction) bool {
	for _, in := range ins {
		if (in.cmd == "ENV" || in.cmd == "RUN" || in.cmd == "ARG") && strings.Contains(in.args, "CGO_ENABLED=0") {
			return true
		}
	}
	return false
}

func checkFinalStage(t *testing.T, final []instruction) {
	t.Helper()
	var user, entrypoint, expose string
	fromBuild := false
	for _, in := range final {
		switch in.cmd {
		case "USER":
			user = in.args
		case "ENTRYPOINT":
			entrypoint = in.args
		case "EXPOSE":
			expose = in.args
		case "COPY":
			fromBuild = fromBuild || strings.Contains(in.args, "--from=")
		}
	}
	switch u, _, _ := strings.Cut(user, ":"); u {
	case "nonroot", "65532":
	default:
		t.Errorf("final stage USER is %q, want nonroot:nonroot", user)
	}
	if !strings.Contains(expose, "8080") {
		t.Errorf("final stage EXPOSE is %q, want 8080", expose)
	}
	if !strings.HasPrefix(entrypoint, "[") {
		t.Errorf("final stage ENTRYPOINT %q is not exec form (there is no shell)", entrypoint)
	}
	if !fromBuild {
		t.Error("final stage copies nothing from the build stage")
	}
}

func TestCopied(t *testing.T) {
	ins := []instruction{
		{cmd: "COPY", args: "go.work* ./"},
		{cmd: "COPY", args: "pkg/go.* pkg/"},
		{cmd: "COPY", args: "gateway/ gateway/"},
		{cmd: "COPY", args: "--from=build /out/app /app"},
	}
	for file, want := range map[string]bool{
		"go.work": true, "go.work.sum": true, "pkg/go.mod": true, "pkg/go.sum": true,
		"gateway/cmd/gateway/main.go": true, "svc-identity/go.mod": false, "pkg/api/x.go": false,
		"/out/app": false,
	} {
		if got := copied(ins, file); got != want {
			t.Errorf("copied(%q) = %v, want %v", file, got, want)
		}
	}
}

// The build context is the repository root: it must not carry the git history or secrets.
func TestDockerignore(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		lines[strings.TrimSuffix(strings.TrimSpace(l), "/")] = true
	}
	for _, want := range []string{".git", ".env", "data", "bin"} {
		if !lines[want] {
			t.Errorf(".dockerignore does not exclude %s", want)
		}
	}
	for l := range lines {
		if strings.Contains(l, "go.mod") || strings.Contains(l, "go.sum") || strings.Contains(l, "go.work") {
			t.Errorf(".dockerignore excludes %q, which the Dockerfiles copy", l)
		}
	}
}
