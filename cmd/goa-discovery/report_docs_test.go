package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsReportOutput reports on the quickstart's three exported runs
// (example/cmd/assistant/testdata/runs, which that package's
// TestExportedRuns keeps equal to what the quickstart exports) and compares
// with the output that docs/observability.md's "Report" section shows.
func TestDocsReportOutput(t *testing.T) {
	doc := readDoc(t, filepath.Join(moduleRoot, "docs", "observability.md"))
	section := markdownSection(t, doc, "## Report")
	_, shown, ok := strings.Cut(section, "```text\n")
	if !ok {
		t.Fatal("the section shows no report output")
	}
	shown, _, _ = strings.Cut(shown, "```")
	runs := filepath.Join(moduleRoot, "example", "cmd", "assistant", "testdata", "runs")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"report", runs}, &stdout, &stderr); code != 0 {
		t.Fatalf("report exited %d: %s", code, stderr.String())
	}
	if stdout.String() != shown {
		t.Errorf("docs/observability.md shows:\n%s\nthe report prints:\n%s", shown, stdout.String())
	}
}
