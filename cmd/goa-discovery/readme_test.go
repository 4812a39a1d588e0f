package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// walkthroughDir holds the files of the README's "Use it in your project",
// which TestUserModule builds and runs.
const walkthroughDir = moduleRoot + "/testdata/usermodule"

// TestReadmeWalkthroughSnippets checks that every Go snippet of the README's
// "Use it in your project" is part of the walkthrough's files: a snippet
// whose first line is "// PATH" is an excerpt of that file, in pieces
// separated by "// ..." lines; any other snippet is a whole file.
func TestReadmeWalkthroughSnippets(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := markdownSection(t, string(readme), "## Use it in your project")
	files := map[string]string{}
	err = filepath.WalkDir(walkthroughDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(walkthroughDir, path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	snippets := goSnippets(section)
	if len(snippets) == 0 {
		t.Fatal("the section has no Go snippet")
	}
	for i, snippet := range snippets {
		first, rest, _ := strings.Cut(snippet, "\n")
		path, isExcerpt := strings.CutPrefix(first, "// ")
		if content, ok := files[path]; isExcerpt && ok {
			for _, piece := range strings.Split(rest, "// ...\n") {
				if piece = strings.Trim(piece, "\n"); piece != "" && !strings.Contains(content, piece) {
					t.Errorf("snippet %d: this part is not in %s:\n%s", i+1, path, piece)
				}
			}
			continue
		}
		whole := false
		for _, content := range files {
			whole = whole || content == snippet
		}
		if !whole {
			t.Errorf("snippet %d names no walkthrough file and is no whole file:\n%s", i+1, snippet)
		}
	}
}

// markdownSection returns the text of the section that starts with heading
// up to the next heading of the same level.
func markdownSection(t *testing.T, doc, heading string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("no section %q", heading)
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		after = after[:i]
	}
	return after
}

// goSnippets returns the contents of the ```go blocks of text.
func goSnippets(text string) []string {
	var out []string
	for {
		_, after, ok := strings.Cut(text, "```go\n")
		if !ok {
			return out
		}
		body, rest, _ := strings.Cut(after, "```\n")
		out = append(out, body)
		text = rest
	}
}
