package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeReportOutput runs the quickstart on its three recordings with
// -export, reports on the runs and compares with the output the README's
// "Observability" section shows.
func TestReadmeReportOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the quickstart")
	}
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := markdownSection(t, string(readme), "## Observability")
	_, shown, ok := strings.Cut(section, "```text\n")
	if !ok {
		t.Fatal("the section shows no report output")
	}
	shown, _, _ = strings.Cut(shown, "```")

	dir := t.TempDir()
	bin := filepath.Join(dir, "assistant")
	build := exec.Command("go", "build", "-o", bin, "./example/cmd/assistant")
	build.Dir = moduleRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the quickstart: %v\n%s", err, out)
	}
	runs := filepath.Join(dir, "runs")
	if err := os.Mkdir(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"anthropic", "openai", "openai-chat"} {
		cmd := exec.Command(bin, "-replay-provider", p, "-export", filepath.Join(runs, p+".json"))
		cmd.Dir = filepath.Join(moduleRoot, "example", "cmd", "assistant")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("quickstart on %s: %v\n%s", p, err, out)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"report", runs}, &stdout, &stderr); code != 0 {
		t.Fatalf("report exited %d: %s", code, stderr.String())
	}
	if stdout.String() != shown {
		t.Errorf("the README shows:\n%s\nthe report prints:\n%s", shown, stdout.String())
	}
}
