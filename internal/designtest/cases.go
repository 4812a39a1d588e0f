package designtest

import (
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Want is one expected validation error: a substring of its message (the
// whole message after its location when Exact is set) and the marker
// comment ("// ERR <marker>") on the design line it must point at.
type Want struct {
	Msg    string
	Marker string
	Exact  bool
}

// Case is a design that breaks rules and the errors it must produce.
type Case struct {
	Name   string
	Design func()
	Want   []Want
}

// RunCases runs each case and checks that the design reports exactly the
// wanted errors, each located at its marker line in the test file that
// calls RunCases (or the function calling it, skip frames up).
func RunCases(t *testing.T, skip int, cases []Case) {
	t.Helper()
	_, file, _, ok := runtime.Caller(1 + skip)
	if !ok {
		t.Fatal("runtime.Caller failed")
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Helper()
			_, err := Run(t, tc.Design)
			if err == nil {
				t.Fatal("design is valid, want errors")
			}
			CheckErrors(t, file, err.Error(), tc.Want)
		})
	}
}

// goInternals matches what a design error must not show: Go's syntax of a
// value (%#v of an expression, a pointer) rather than the design's words.
var goInternals = regexp.MustCompile(`0x[0-9a-f]{6,}|&expr\.|\(\*expr\.|\*expr\.[A-Z]|expr\.[A-Z][A-Za-z]*Expr\{`)

// CheckErrors checks that report has one line per wanted error and that
// each wanted message is on a line that starts with the design location of
// its marker in file (and is that line, for an exact message).
func CheckErrors(t *testing.T, file, report string, want []Want) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(report), "\n")
	for _, line := range lines {
		if goInternals.MatchString(line) {
			t.Errorf("error %q\n  shows Go internals; name the value as the design reads it", line)
		}
	}
	if len(lines) != len(want) {
		t.Errorf("got %d errors, want %d:\n%s", len(lines), len(want), report)
	}
	for _, w := range want {
		loc := "[" + filepath.Base(file) + ":" + strconv.Itoa(MarkerLine(t, file, w.Marker)) + "] "
		found := false
		for _, line := range lines {
			if !strings.Contains(line, w.Msg) {
				continue
			}
			found = true
			switch {
			case !strings.HasPrefix(line, loc):
				t.Errorf("error %q\n  is not located at %s", line, loc)
			case w.Exact && line != loc+w.Msg:
				t.Errorf("error %q\n  is not exactly %q", line, loc+w.Msg)
			}
		}
		if !found {
			t.Errorf("no error contains %q in:\n%s", w.Msg, report)
		}
	}
}
