package dsl_test

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// The design test files of this package dot-import both goa.design/goa/v3/dsl
// and this package: the package compiling proves that no exported name
// collides.

// wantErr is one expected validation error: a substring of its message and
// the marker comment ("// ERR <marker>") on the design line it must point at.
type wantErr struct {
	msg    string
	marker string
}

// designCase is a design that breaks rules and the errors it must produce.
type designCase struct {
	name   string
	design func()
	want   []wantErr
}

// runDesignCases runs each case and checks that the design reports exactly the
// wanted errors, each located at its marker line in the calling test file.
func runDesignCases(t *testing.T, cases []designCase) {
	t.Helper()
	_, file, _, ok := runtime.Caller(1)
	if !ok {
		t.Fatal("runtime.Caller failed")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := designtest.Run(t, tc.design)
			if err == nil {
				t.Fatal("design is valid, want errors")
			}
			checkErrors(t, file, err.Error(), tc.want)
		})
	}
}

// checkErrors checks that report has one line per wanted error, that each
// wanted message is on a line that starts with the design location of its
// marker, and that no line points into this module's dsl or expr sources.
func checkErrors(t *testing.T, file, report string, want []wantErr) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if len(lines) != len(want) {
		t.Errorf("got %d errors, want %d:\n%s", len(lines), len(want), report)
	}
	for _, w := range want {
		loc := "[" + filepath.Base(file) + ":" + strconv.Itoa(designtest.MarkerLine(t, file, w.marker)) + "] "
		found := false
		for _, line := range lines {
			if strings.Contains(line, w.msg) {
				found = true
				if !strings.HasPrefix(line, loc) {
					t.Errorf("error %q\n  is not located at %s", line, loc)
				}
			}
		}
		if !found {
			t.Errorf("no error contains %q in:\n%s", w.msg, report)
		}
	}
}
