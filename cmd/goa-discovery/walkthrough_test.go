package main

// This file reads a walkthrough page (docs/guide.md, docs/mcp-quickstart.md)
// the way a reader does: section by section, each a step with its files,
// its commands and the output it shows. TestUserModule (e2e) runs the steps;
// TestWalkthroughs checks, without running anything, that every block is one
// the walk knows how to follow.

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The e2e markers: an HTML comment on the line before a fence tells the walk
// how to follow that block; a block without one is followed as shown.
const (
	// markClone: the commands that use a clone of this repository at
	// clonePath; the walk runs them with this checkout as the clone.
	markClone = "from a clone"
	// markFirstWalk: commands (or output) of the first walk only, such as
	// creating the module; walking the page again starts after them.
	markFirstWalk = "first walk only"
	// markUnpublished: a command that needs a published version of this
	// module; the walk runs it in a scratch module and requires it to fail,
	// so that the page's note that no version is published stays true.
	markUnpublished = "fails until a version is published"
	// markTestDeps: an npm install of what scripts/test-deps installs; the
	// walk checks the versions and links the module's node_modules to the
	// installed ones instead.
	markTestDeps = "installed by scripts/test-deps"
)

// knownMarks are the markers a walk follows.
var knownMarks = map[string]bool{markClone: true, markFirstWalk: true, markUnpublished: true, markTestDeps: true}

// marker matches an e2e marker line.
var marker = regexp.MustCompile(`^<!-- e2e: (.*) -->$`)

// inAnotherTerminal ends a command that keeps running (a server) while the
// next commands run.
const inAnotherTerminal = "# in another terminal"

// walkStep is one section of a walkthrough page.
type walkStep struct {
	heading string
	blocks  []walkBlock
}

// walkBlock is one fenced block of a step.
type walkBlock struct {
	lang   string // "go", "sh", "text"...
	mark   string // the e2e marker before it, "" when none
	body   string
	line   int    // the line of its opening fence
	path   string // a Go block's file path, from its first line "// PATH"
	source string // a Go block's file, without that line
}

// walkSteps splits a walkthrough page into its "## " sections, in order.
func walkSteps(t *testing.T, page string) []walkStep {
	t.Helper()
	lines := strings.Split(readDoc(t, page), "\n")
	steps := []walkStep{{heading: "(top)"}}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			steps = append(steps, walkStep{heading: strings.TrimPrefix(l, "## ")})
			continue
		}
		lang, ok := strings.CutPrefix(l, "```")
		if !ok || lang == "" {
			continue
		}
		b := walkBlock{lang: lang, line: i + 1}
		if i > 0 {
			if m := marker.FindStringSubmatch(lines[i-1]); m != nil {
				if !knownMarks[m[1]] {
					t.Fatalf("%s:%d: unknown e2e marker %q", page, i, m[1])
				}
				b.mark = m[1]
			}
		}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: the block is not closed", page, b.line)
		}
		b.body = strings.Join(body, "\n") + "\n"
		if lang == "go" {
			first, rest, _ := strings.Cut(b.body, "\n")
			path, ok := strings.CutPrefix(first, "// ")
			if !ok || !strings.HasSuffix(path, ".go") || strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
				t.Fatalf("%s:%d: a Go block does not start with the line // PATH.go: %q", page, b.line, first)
			}
			b.path, b.source = path, strings.TrimPrefix(rest, "\n")
		}
		steps[len(steps)-1].blocks = append(steps[len(steps)-1].blocks, b)
	}
	return steps
}

// shellCommands returns the commands of a sh block: lines joined where they
// end with a backslash, blank and comment lines left out.
func shellCommands(body string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(body, "\n") {
		if cont, ok := strings.CutSuffix(l, "\\"); ok {
			cur += cont
			continue
		}
		cur += l
		if s := strings.TrimSpace(cur); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
		cur = ""
	}
	return out
}

// trailingComment matches a shell comment at the end of a command.
var trailingComment = regexp.MustCompile(`\s+# .*$`)

// bareCommand returns a command without its trailing comment and with its
// spaces collapsed, as a transcript shows it.
func bareCommand(cmd string) string {
	return strings.Join(strings.Fields(trailingComment.ReplaceAllString(cmd, "")), " ")
}

// transcriptEntry is one command of a text block that shows a session:
// "$ COMMAND" and the lines it prints.
type transcriptEntry struct {
	command string
	output  []string
}

// transcript returns the entries of a text block that starts with "$ ", or
// nil for another text block. A line "..." in an output stands for any
// lines; a lone "$" ends the session.
func transcript(body string) []transcriptEntry {
	if !strings.HasPrefix(body, "$ ") {
		return nil
	}
	var out []transcriptEntry
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if l == "$" {
			break
		}
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, transcriptEntry{command: bareCommand(cmd)})
			continue
		}
		out[len(out)-1].output = append(out[len(out)-1].output, l)
	}
	return out
}

// outputMatches reports whether got (the lines a command printed) is want,
// where a "..." line of want stands for any lines, none included.
func outputMatches(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if outputMatches(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && outputMatches(want[1:], got[1:])
}

// walkthroughPages are the pages that TestUserModule walks.
var walkthroughPages = []string{guidePath, moduleRoot + "/docs/mcp-quickstart.md"}

// TestWalkthroughs checks, without running them, the pages TestUserModule
// walks: every Go block is a whole gofmt'ed file shown once, every text block
// that shows a session shows commands of its step, and every marker is one a
// walk follows.
func TestWalkthroughs(t *testing.T) {
	for _, page := range walkthroughPages {
		t.Run(page, func(t *testing.T) {
			seen := map[string]bool{}
			for _, s := range walkSteps(t, page) {
				var commands []string
				for _, b := range s.blocks {
					switch b.lang {
					case "go":
						if seen[b.path] {
							t.Errorf("%s:%d: %s is shown twice", page, b.line, b.path)
						}
						seen[b.path] = true
						checkWholeFile(t, page, b)
					case "sh":
						for _, c := range shellCommands(b.body) {
							commands = append(commands, bareCommand(c))
						}
					case "text":
						for _, e := range transcript(b.body) {
							i := slices.Index(commands, e.command)
							if i < 0 {
								t.Errorf("%s:%d: the output shown is of %q, which step %q does not run (as many times) before it", page, b.line, e.command, s.heading)
								continue
							}
							commands = slices.Delete(commands, i, i+1)
						}
					}
				}
			}
		})
	}
}

// TestOutputMatches checks the "..." rule of transcripts.
func TestOutputMatches(t *testing.T) {
	cases := []struct {
		want, got []string
		ok        bool
	}{
		{nil, nil, true},
		{nil, []string{"a"}, false},
		{[]string{"a", "...", "d"}, []string{"a", "b", "c", "d"}, true},
		{[]string{"a", "...", "d"}, []string{"a", "d"}, true},
		{[]string{"a", "...", "d"}, []string{"a", "b"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{[]string{"..."}, nil, true},
	}
	for _, c := range cases {
		if got := outputMatches(c.want, c.got); got != c.ok {
			t.Errorf("outputMatches(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}
