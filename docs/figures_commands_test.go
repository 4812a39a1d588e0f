//go:build figures

package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shBlock matches a fenced shell block of a Markdown page.
var shBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

// notRunHere are the blocks of figures.md that this test does not run,
// each with where it runs instead.
var notRunHere = []struct{ marker, why string }{
	{".ci/run", "the clean clone's run is what CI itself runs"},
	{"go test ./...", "the whole suite is scripts/test, a step of .ci/run"},
	{"PORT", "the embedding server is started by the hybrid tests (internal/embedserver), its model installed by scripts/test-deps"},
	{".ci/steps/mcp-import-fleet", "it is a CI step of its own, which installs the npm servers it imports"},
	{".ci/steps/mcp-gateway", "it is a CI step of its own, which installs the npm servers and clients it runs"},
	{".ci/steps/user-module-weight", "it is a CI step of its own"},
	{"-tags redisha", "the Sentinel suite runs in .ci/steps/redis-sentinel, which installs redis-sentinel and prints these lines (-v)"},
}

// shrink makes a figure's command cheap without changing what it runs:
// each benchmark runs once, generated catalogs have 2,000 tools, and files
// go to a temporary directory.
var shrink = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`-benchtime \S+`), "-benchtime 1x"},
	{regexp.MustCompile(`-count \d+`), "-count 1"},
	{regexp.MustCompile(`-n 100000\b`), "-n 2000"},
	{regexp.MustCompile(`/tmp/`), "$FIGURES_TMP/"},
	{regexp.MustCompile(`(^| )(cpu\.out|scaleout\.test)\b`), "$1$$FIGURES_TMP/$2"},
	{regexp.MustCompile(`scripts/bench-compare `), "scripts/bench-compare -benchtime 1x "},
}

// TestFiguresCommands runs every shell command docs/figures.md shows, from
// the repository's root, so that none of them goes stale: a renamed
// benchmark, flag or test fails here. It runs in CI as
// .ci/steps/figures-commands; the figures themselves come from the
// commands as shown.
func TestFiguresCommands(t *testing.T) {
	data, err := os.ReadFile("figures.md")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlock.FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 10 {
		t.Fatalf("figures.md has %d shell blocks; the test is not reading it", len(blocks))
	}
	for i, m := range blocks {
		block := m[1]
		t.Run(blockName(i, block), func(t *testing.T) {
			for _, n := range notRunHere {
				if strings.Contains(block, n.marker) {
					t.Skipf("not run here: %s", n.why)
				}
			}
			script := block
			for _, s := range shrink {
				script = s.re.ReplaceAllString(script, s.with)
			}
			script = addBenchtime(script)
			cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "FIGURES_TMP="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("figures.md shell block %d failed: %v\n%s\n--- output\n%s", i+1, err, script, out)
			}
		})
	}
}

// addBenchtime gives every go test line with -bench and no -benchtime one
// run of each benchmark.
func addBenchtime(script string) string {
	lines := strings.Split(script, "\n")
	for i, l := range lines {
		if strings.Contains(l, "go test") && strings.Contains(l, "-bench ") && !strings.Contains(l, "-benchtime") {
			lines[i] = strings.Replace(l, "go test", "go test -benchtime 1x", 1)
		}
	}
	return strings.Join(lines, "\n")
}

// blockName names a block by its first command.
func blockName(i int, block string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(block), "\n")
	if len(first) > 60 {
		first = first[:60]
	}
	return strings.NewReplacer(" ", "_", "/", "_").Replace(first)
}
