package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// searchDocsPrefix starts every search command docs/cli.md shows.
const searchDocsPrefix = "go run ./cmd/goa-discovery search "

// TestSearchDocsCommands runs every search command of docs/cli.md's search
// section and of README.md from the repository's root, and checks that
// each output line the section shows (its text blocks other than -h) is a
// line one of them prints.
func TestSearchDocsCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	doc := readDoc(t, filepath.Join(moduleRoot, "docs", "cli.md"))
	_, section, ok := strings.Cut(doc, "\n## search\n")
	if !ok {
		t.Fatal(`docs/cli.md has no "## search" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	readme := readDoc(t, filepath.Join(moduleRoot, "README.md"))
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	var printed []string
	commands := 0
	pages := []struct {
		name, text string
		// only says that the page's shell blocks hold other commands too.
		only bool
	}{{"docs/cli.md's search section", section, false}, {"README.md", readme, true}}
	for _, page := range pages {
		for _, block := range fencedBlocks(page.text, "sh") {
			for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
				rest, ok := strings.CutPrefix(line, searchDocsPrefix)
				if !ok {
					if !page.only {
						t.Errorf("%s shows %q, which is not a search command", page.name, line)
					}
					continue
				}
				commands++
				var stdout, stderr bytes.Buffer
				if code := run(append([]string{"search"}, strings.Fields(rest)...), &stdout, &stderr); code != 0 {
					t.Errorf("%s: %s: exit %d\nstdout:\n%s\nstderr:\n%s", page.name, line, code, stdout.String(), stderr.String())
				}
				printed = append(printed, strings.Split(stdout.String()+stderr.String(), "\n")...)
			}
		}
	}
	if commands < 7 {
		t.Fatalf("found %d search commands in docs/cli.md and README.md; the test is not reading them", commands)
	}
	for _, block := range fencedBlocks(section, "text") {
		if strings.HasPrefix(block, helpPrompt) {
			continue // TestCLIDocs checks -h
		}
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			if !slices.Contains(printed, line) {
				t.Errorf("docs/cli.md shows %q, which no search command of the section prints", line)
			}
		}
	}
}
