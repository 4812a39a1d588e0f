package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// helpPrompt starts every help block of docs/cli.md: "$ goa-discovery ARGS -h".
const helpPrompt = "$ goa-discovery "

// TestCLIDocs checks that docs/cli.md shows, for the command and every
// subcommand, exactly what its -h prints, and that no command is left out.
func TestCLIDocs(t *testing.T) {
	doc := readDoc(t, filepath.Join(moduleRoot, "docs", "cli.md"))
	shown := map[string]bool{}
	for _, block := range fencedBlocks(doc, "text") {
		first, want, _ := strings.Cut(block, "\n")
		line, ok := strings.CutPrefix(first, helpPrompt)
		if !ok || !strings.HasSuffix(line, "-h") {
			continue
		}
		args := strings.Fields(line)
		name := strings.Join(args[:len(args)-1], " ")
		shown[name] = true
		t.Run("goa-discovery "+line, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if got := stderr.String() + stdout.String(); got != want {
				t.Errorf("docs/cli.md shows:\n%s\n-h prints:\n%s", want, got)
			}
		})
	}
	for _, name := range documentedCommands() {
		if !shown[name] {
			t.Errorf("docs/cli.md does not show %q", "goa-discovery "+name+" -h")
		}
	}
}

// documentedCommands lists every command line whose -h docs/cli.md must
// show: the command itself, each command, and each subcommand that a
// command's usage names ("usage: goa-discovery registry serve ...").
func documentedCommands() []string {
	names := []string{""}
	for _, c := range commands {
		names = append(names, c.name)
		var stdout, stderr bytes.Buffer
		run([]string{c.name, "-h"}, &stdout, &stderr)
		for _, line := range strings.Split(stderr.String(), "\n") {
			line = strings.TrimPrefix(strings.TrimSpace(line), "usage: ")
			rest, ok := strings.CutPrefix(line, "goa-discovery "+c.name+" ")
			if !ok {
				continue
			}
			if sub, _, _ := strings.Cut(rest, " "); sub != "" && sub[0] >= 'a' && sub[0] <= 'z' {
				names = append(names, c.name+" "+sub)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
