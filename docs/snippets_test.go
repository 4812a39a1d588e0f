package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlock matches a fenced Go block of a Markdown page.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// elision is the inline mark of left-out code.
const elision = "/* ... */"

// walkthroughs are the pages whose Go blocks are whole files of the
// reader's module, not code of this repository: TestWalkthroughCode checks
// them here, and TestUserModule (cmd/goa-discovery, e2e) builds and runs them.
var walkthroughs = map[string]bool{"guide.md": true, "mcp-quickstart.md": true}

// TestSnippetsAreRepositoryCode checks that every Go snippet of the docs,
// the walkthroughs aside, is code of one Go file of the repository.
func TestSnippetsAreRepositoryCode(t *testing.T) {
	sources := goSources(t)
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages {
		if walkthroughs[page] {
			continue
		}
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range goBlock.FindAllStringSubmatch(string(data), -1) {
			snippet := lines(m[1])
			found := false
			for _, src := range sources {
				if contains(src.lines, snippet) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s, Go block %d is not code of any Go file of the repository:\n%s", page, i+1, m[1])
			}
		}
	}
}

// source is one Go file, as trimmed non-blank lines.
type source struct {
	path  string
	lines []string
}

// goSources reads every Go file of the repository but generated ones.
func goSources(t *testing.T) []source {
	t.Helper()
	var out []source
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasPrefix(string(data), "// Code generated") {
			return nil
		}
		out = append(out, source{path, lines(string(data))})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lines returns the non-blank lines of text, trimmed of indentation.
func lines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// contains reports whether src holds snippet: its pieces (runs of lines
// between "// ..." lines) each contiguous, in order. A line with "/* ... */"
// matches a line with the same start and end.
func contains(src, snippet []string) bool {
	var pieces [][]string
	piece := []string{}
	for _, l := range snippet {
		if l == "// ..." {
			pieces = append(pieces, piece)
			piece = []string{}
			continue
		}
		piece = append(piece, l)
	}
	pieces = append(pieces, piece)
	at := 0
	for _, p := range pieces {
		if len(p) == 0 {
			continue
		}
		i := find(src, p, at)
		if i < 0 {
			return false
		}
		at = i + len(p)
	}
	return true
}

// find returns the first index at or after from where piece matches src
// line by line, or -1.
func find(src, piece []string, from int) int {
	for i := from; i+len(piece) <= len(src); i++ {
		ok := true
		for j, l := range piece {
			if !lineMatches(src[i+j], l) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

// lineMatches reports whether the source line s is the snippet line l.
func lineMatches(s, l string) bool {
	before, after, elided := strings.Cut(l, elision)
	if !elided {
		return s == l
	}
	return len(s) >= len(before)+len(after) && strings.HasPrefix(s, strings.TrimSpace(before)) && strings.HasSuffix(s, strings.TrimSpace(after))
}
