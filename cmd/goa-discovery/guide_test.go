package main

import (
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// guidePath is the walkthrough that TestUserModule follows in a new module.
const guidePath = moduleRoot + "/docs/guide.md"

// clonePath is where the guide says the clone is; TestUserModule puts this
// checkout there.
const clonePath = "$HOME/src/goa-discovery"

// readDoc returns the text of a file of the repository.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// guideFiles returns the files of the guide: every ```go block is a whole
// file, whose first line "// PATH" names where it goes in the module.
func guideFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for i, block := range fencedBlocks(readDoc(t, guidePath), "go") {
		first, rest, _ := strings.Cut(block, "\n")
		path, ok := strings.CutPrefix(first, "// ")
		if !ok || !strings.HasSuffix(path, ".go") || filepath.IsAbs(path) || strings.Contains(path, "..") {
			t.Fatalf("Go block %d of %s does not start with the line // PATH.go: %q", i+1, guidePath, first)
		}
		if _, dup := files[path]; dup {
			t.Fatalf("%s shows %s twice", guidePath, path)
		}
		files[path] = strings.TrimPrefix(rest, "\n")
	}
	return files
}

// markdownSection returns the text of the section that starts with heading
// up to the next heading of the same or a higher level.
func markdownSection(t *testing.T, doc, heading string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("no section %q", heading)
	}
	level, _, _ := strings.Cut(heading, " ")
	for l := len(level); l > 0; l-- {
		if i := strings.Index(after, "\n"+strings.Repeat("#", l)+" "); i >= 0 {
			after = after[:i]
		}
	}
	return after
}

// fencedBlocks returns the contents of the ```lang blocks of a Markdown text.
func fencedBlocks(text, lang string) []string {
	var out []string
	for {
		_, after, ok := strings.Cut(text, "```"+lang+"\n")
		if !ok {
			return out
		}
		body, rest, _ := strings.Cut(after, "```\n")
		out = append(out, body)
		text = rest
	}
}

// checkWholeFile checks that a Go block of a walkthrough is a whole,
// gofmt'ed file: nothing left out with "// ...".
func checkWholeFile(t *testing.T, page string, b walkBlock) {
	t.Helper()
	if strings.Contains(b.source, "// ...") || strings.Contains(b.source, "/* ... */") {
		t.Errorf("%s:%d: %s leaves code out; show the whole file", page, b.line, b.path)
	}
	formatted, err := format.Source([]byte(b.source))
	if err != nil {
		t.Errorf("%s:%d: %s does not parse: %v", page, b.line, b.path, err)
		return
	}
	if string(formatted) != b.source {
		t.Errorf("%s:%d: %s is not gofmt'ed", page, b.line, b.path)
	}
}
