package docs

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The marks of docs/temporal.md's blocks that .ci/steps/temporal-walk runs,
// and of the walk's lines in the script.
const (
	devserverMark = "<!-- .ci/steps/temporal-walk runs this block, go run in a process group of its own -->\n"
	walkMark      = "<!-- .ci/steps/temporal-walk runs this block verbatim -->\n"
	walkBegin     = "# walk begin\n"
	walkEnd       = "# walk end\n"
)

// markedBlock returns the fenced block of page that follows mark, and the
// fenced block after that one.
func markedBlock(t *testing.T, page, mark string) (block, next string) {
	t.Helper()
	_, rest, ok := strings.Cut(page, mark)
	if !ok {
		t.Fatalf("docs/temporal.md lacks the mark %q", mark)
	}
	fences := regexp.MustCompile("(?s)^```(?:sh)?\n(.*?)```\n.*?```\n(.*?)```").FindStringSubmatch(rest)
	if fences == nil {
		t.Fatalf("no fenced blocks after %q", mark)
	}
	return fences[1], fences[2]
}

// TestTemporalWalkIsCI checks that .ci/steps/temporal-walk runs the
// commands docs/temporal.md shows: the walk's block line for line, and
// go run ./cmd/devserver from the module's directory, waiting for the
// ready line the page shows.
func TestTemporalWalkIsCI(t *testing.T) {
	page, err := os.ReadFile("temporal.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../.ci/steps/temporal-walk")
	if err != nil {
		t.Fatal(err)
	}

	walk, _ := markedBlock(t, string(page), walkMark)
	_, rest, ok := strings.Cut(string(script), walkBegin)
	if !ok {
		t.Fatalf("the script lacks %q", walkBegin)
	}
	ran, _, ok := strings.Cut(rest, walkEnd)
	if !ok {
		t.Fatalf("the script lacks %q", walkEnd)
	}
	if ran != walk {
		t.Errorf("the script runs\n%s\ndocs/temporal.md shows\n%s", ran, walk)
	}

	serve, ready := markedBlock(t, string(page), devserverMark)
	lines := strings.Split(strings.TrimSuffix(serve, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "cd ") {
		t.Fatalf("the devserver block is not a cd and a command: %q", serve)
	}
	run := "(" + lines[0] + " && exec " + lines[1] + " >"
	if !strings.Contains(string(script), run) {
		t.Errorf("the script does not run %q", run)
	}
	if want := "ready='" + strings.TrimSuffix(ready, "\n") + "'\n"; !strings.Contains(string(script), want) {
		t.Errorf("the script does not wait for the page's ready line: %s", want)
	}
}
