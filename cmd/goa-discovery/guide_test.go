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

// cloneMarker marks the guide's block of commands that make a new module use
// a clone of this repository.
const cloneMarker = "<!-- e2e: from a clone -->\n"

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

// guideCloneCommands returns the commands of the guide's block after
// cloneMarker, with the clone's path replaced by root.
func guideCloneCommands(t *testing.T, root string) string {
	t.Helper()
	_, after, ok := strings.Cut(readDoc(t, guidePath), cloneMarker+"```sh\n")
	if !ok {
		t.Fatalf("%s has no sh block after %q", guidePath, cloneMarker)
	}
	block, _, _ := strings.Cut(after, "```\n")
	if !strings.Contains(block, clonePath) {
		t.Fatalf("the guide's commands for a clone do not use %s:\n%s", clonePath, block)
	}
	return strings.ReplaceAll(block, clonePath, root)
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

// TestGuideFiles checks, without building them (TestUserModule does), that
// the guide shows whole, gofmt'ed files: nothing left out with "// ...", and
// the design, the program and its registry step all there.
func TestGuideFiles(t *testing.T) {
	files := guideFiles(t)
	for _, want := range []string{"design/design.go", "cmd/helpdesk/main.go", "cmd/helpdesk/registry.go"} {
		if _, ok := files[want]; !ok {
			t.Errorf("the guide does not show %s", want)
		}
	}
	for path, src := range files {
		if strings.Contains(src, "// ...") || strings.Contains(src, "/* ... */") {
			t.Errorf("%s: the guide leaves code out; show the whole file", path)
		}
		formatted, err := format.Source([]byte(src))
		if err != nil {
			t.Errorf("%s does not parse: %v", path, err)
			continue
		}
		if string(formatted) != src {
			t.Errorf("%s is not gofmt'ed", path)
		}
	}
}
