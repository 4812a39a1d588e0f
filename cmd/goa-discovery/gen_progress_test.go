package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBuildProgress: a build of the generator program that compiles its
// dependencies (a first gen) is announced and timed on stderr; one that
// compiles only the design and the program says nothing; the compiler's
// messages come back whole, without the package names.
func TestBuildProgress(t *testing.T) {
	deps := "internal/goarch\ninternal/abi\nruntime\nfmt\ngoa.design/goa/v3/eval\ngithub.com/dave/jennifer/jen\n"
	cases := []struct {
		name      string
		chunks    []string
		announced bool
		output    string
	}{
		{"a first gen", []string{deps, "example.com/helpdesk/design\n", "example.com/helpdesk/goa-discovery-gen-1\n"}, true, ""},
		{"after a design change", []string{"example.com/helpdesk/design\nexample.com/helpdesk/goa-discovery-gen-1\n"}, false, ""},
		{"nothing to compile", nil, false, ""},
		{"a compile error", []string{"example.com/helpdesk/design\n# example.com/helpdesk/design\ndesign/design.go:33:8: undefined: TicketIDD\n"}, false,
			"# example.com/helpdesk/design\ndesign/design.go:33:8: undefined: TicketIDD\n"},
		{"lines split across writes", []string{"internal/go", "arch\nint", "ernal/abi\nruntime\nfmt\nos\ngo: downloading x v1", ".0.0\n"}, true, "go: downloading x v1.0.0\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			p := newBuildProgress(&stderr)
			for _, c := range tc.chunks {
				if _, err := p.Write([]byte(c)); err != nil {
					t.Fatal(err)
				}
			}
			out := p.finish()
			if got := string(out); got != tc.output {
				t.Errorf("output %q, want %q", got, tc.output)
			}
			said := stderr.String()
			if announced := strings.Contains(said, "compiling the generator program and its dependencies"); announced != tc.announced {
				t.Errorf("announced: %v, want %v:\n%s", announced, tc.announced, said)
			}
			if tc.announced && !strings.Contains(said, "goa-discovery gen: compiled ") {
				t.Errorf("the announced build is not timed:\n%s", said)
			}
			if strings.Count(said, "compiling the generator program") > 1 {
				t.Errorf("announced more than once:\n%s", said)
			}
		})
	}
}
