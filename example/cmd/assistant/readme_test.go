package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// loopbackPort matches the ports a run prints, which differ per run.
var loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// TestReadmeQuickstartOutput runs every quickstart command whose output
// the README shows ("$ go run ./example/cmd/assistant ..." in a text
// block) and checks that each line shown, ports aside, is a line the run
// printed, in the same order; "..." stands for lines left out.
func TestReadmeQuickstartOutput(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "```text\n$ go run ./example/cmd/assistant"
	blocks := strings.Split(string(readme), prompt)[1:]
	if len(blocks) < 2 {
		t.Fatalf("the README shows the output of %d quickstart runs, want the anthropic and openai-chat ones", len(blocks))
	}
	for _, b := range blocks {
		b, _, _ = strings.Cut(b, "```")
		argLine, shown, _ := strings.Cut(b, "\n")
		name := strings.TrimSpace(argLine)
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runCommand(context.Background(), strings.Fields(argLine), noEnv, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			printed := strings.Split(loopbackPort.ReplaceAllString(stdout.String(), "127.0.0.1:PORT"), "\n")
			next := 0
			for _, line := range strings.Split(strings.TrimSuffix(shown, "\n"), "\n") {
				if line == "..." {
					continue
				}
				line = loopbackPort.ReplaceAllString(line, "127.0.0.1:PORT")
				i := next
				for i < len(printed) && printed[i] != line {
					i++
				}
				if i == len(printed) {
					t.Fatalf("the README shows %q, which the run does not print (after line %d):\n%s", line, next, stdout.String())
				}
				next = i + 1
			}
		})
	}
}
