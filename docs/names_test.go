package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
)

// docPages returns the Markdown pages checked against the code: docs/*.md
// and the README.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	out := map[string]string{}
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(data)
	}
	return out
}

var (
	// reservedList matches a list of the reserved names in prose: a
	// parenthesis after the word "reserved" that names `tool_search`, up to
	// its first ':' or ';'.
	reservedList = regexp.MustCompile("reserved[^()]{0,80}\\(([^():;]*`tool_search`[^():;]*)")
	// reservedText matches the list an error message quotes.
	reservedText = regexp.MustCompile(`reserved: ([a-z_, ]+)\)`)
	backticked   = regexp.MustCompile("`([^`]+)`")
)

// TestReservedNamesInDocs checks that every list of the names reserved for
// discovery in the docs is the runtime's list, discovery.ReservedNames.
func TestReservedNamesInDocs(t *testing.T) {
	want := discovery.ReservedNames()
	slices.Sort(want)
	lists := 0
	for page, text := range docPages(t) {
		text = strings.Join(strings.Fields(text), " ")
		var found [][]string
		for _, m := range reservedList.FindAllStringSubmatch(text, -1) {
			var names []string
			for _, b := range backticked.FindAllStringSubmatch(m[1], -1) {
				names = append(names, b[1])
			}
			found = append(found, names)
		}
		for _, m := range reservedText.FindAllStringSubmatch(text, -1) {
			found = append(found, strings.Split(m[1], ", "))
		}
		for _, names := range found {
			lists++
			slices.Sort(names)
			if !slices.Equal(names, want) {
				t.Errorf("%s lists the reserved names %q; the runtime reserves %q", page, names, want)
			}
		}
	}
	if lists == 0 {
		t.Fatal("no page lists the reserved names")
	}
}

// userModulePages are the pages a reader follows in their own module, where
// the command is a tool of the module.
var userModulePages = []string{"guide.md", "mcp-quickstart.md", "mcp.md"}

// shellBlock matches a fenced sh block.
var shellBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

// bareCommand matches the command run by its bare name at the start of a
// shell command.
var bareCommand = regexp.MustCompile(`(^|[;&|(]\s*)goa-discovery\s`)

// TestCommandSpelling checks how the docs' shell blocks run the command:
// never by a bare "goa-discovery" (nothing installs it on PATH), and in the
// pages a reader follows in their own module as "go tool goa-discovery",
// the tool that go.mod pins.
func TestCommandSpelling(t *testing.T) {
	for page, text := range docPages(t) {
		userModule := slices.Contains(userModulePages, page)
		for _, block := range shellBlock.FindAllStringSubmatch(text, -1) {
			for _, line := range strings.Split(strings.ReplaceAll(block[1], "\\\n", " "), "\n") {
				line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
				if bareCommand.MatchString(line) {
					t.Errorf("%s runs the command by its bare name; write go tool goa-discovery (a tool of the module) or go run ./cmd/goa-discovery (in a clone):\n%s", page, line)
				}
				if userModule && strings.Contains(line, "go run ./cmd/goa-discovery") {
					t.Errorf("%s is followed in the reader's module, where the command is go tool goa-discovery:\n%s", page, line)
				}
			}
		}
	}
}
