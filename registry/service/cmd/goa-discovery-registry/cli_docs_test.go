package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cliDoc is the page that shows what every command's -h prints.
var cliDoc = filepath.Join("..", "..", "..", "..", "docs", "cli.md")

// helpBlock matches a text block of docs/cli.md that shows this command's
// -h: the prompt line, then what it prints.
var helpBlock = regexp.MustCompile("(?s)```text\n\\$ goa-discovery-registry ([^\n]*)-h\n(.*?)```")

// TestCLIDocs checks that docs/cli.md shows, for the command and each of
// its subcommands, exactly what -h prints, and that none is left out.
func TestCLIDocs(t *testing.T) {
	doc, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for _, m := range helpBlock.FindAllStringSubmatch(string(doc), -1) {
		args := append(strings.Fields(m[1]), "-h")
		name := strings.Join(args[:len(args)-1], " ")
		shown[name] = true
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if got := stderr.String() + stdout.String(); got != m[2] {
				t.Errorf("docs/cli.md shows:\n%s\n-h prints:\n%s", m[2], got)
			}
		})
	}
	for _, name := range []string{"", "serve", "ls", "show", "calls", "withdraw"} {
		if !shown[name] {
			t.Errorf("docs/cli.md does not show %q", strings.TrimSpace("goa-discovery-registry "+name+" -h"))
		}
	}
}
