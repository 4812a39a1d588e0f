package discovery

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"records_lookup", true},
		{"_private", true},
		{"a-b-c", true},
		{"A1", true},
		{strings.Repeat("a", MaxNameLength), true},
		{"", false},
		{strings.Repeat("a", MaxNameLength+1), false},
		{"1tool", false},
		{"-tool", false},
		{"github.create_issue", false},
		{"with space", false},
		{"caf\u00e9", false},
		{"a/b", false},
	}
	for _, tc := range cases {
		err := ValidateName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidName) {
			t.Errorf("ValidateName(%q) = %v, want ErrInvalidName", tc.name, err)
		}
		if IsPortable(tc.name) != tc.ok {
			t.Errorf("IsPortable(%q) = %v, want %v", tc.name, !tc.ok, tc.ok)
		}
	}
}

func TestPortableName(t *testing.T) {
	long := strings.Repeat("x", 200)
	cases := []struct {
		in, want string
	}{
		{"records_lookup", "records_lookup"},
		{"github.create_issue", "github_create_issue"},
		{"a b/c", "a_b_c"},
		{"caf\u00e9.menu", "caf__menu"},
		{"1password.get", "_1password_get"},
		{"-x", "_-x"},
		{"", "_"},
		{"\u00e9t\u00e9", "_t_"},
		{long, strings.Repeat("x", 119) + "_" + "a1a4d2c7"},
	}
	for _, tc := range cases {
		got := PortableName(tc.in)
		if tc.in == long {
			// The suffix is the hash of the name; check its shape.
			if len(got) != MaxNameLength || !strings.HasPrefix(got, strings.Repeat("x", 119)+"_") {
				t.Errorf("PortableName(long) = %q", got)
			}
		} else if got != tc.want {
			t.Errorf("PortableName(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if err := ValidateName(got); err != nil {
			t.Errorf("PortableName(%q) = %q, not portable: %v", tc.in, got, err)
		}
	}
	if a, b := PortableName(long), PortableName(long+"y"); a == b {
		t.Errorf("long names differing past the cut map to one name %q", a)
	}
}

func TestNameMap(t *testing.T) {
	m, err := NewNameMap("github.create_issue", "records_lookup", "records_lookup", "slack.post")
	if err != nil {
		t.Fatalf("NewNameMap: %v", err)
	}
	if m.Len() != 3 {
		t.Errorf("Len = %d, want 3", m.Len())
	}
	if p, ok := m.Portable("github.create_issue"); !ok || p != "github_create_issue" {
		t.Errorf("Portable = %q, %v", p, ok)
	}
	if o, ok := m.Original("slack_post"); !ok || o != "slack.post" {
		t.Errorf("Original = %q, %v", o, ok)
	}
	if _, ok := m.Original("slack.post"); ok {
		t.Errorf("Original accepted an unmapped name")
	}

	_, err = NewNameMap("ok", "a.b", "c", "a_b")
	var cerr *CollisionError
	if !errors.As(err, &cerr) || !errors.Is(err, ErrNameCollision) {
		t.Fatalf("NewNameMap = %v, want a *CollisionError", err)
	}
	if cerr.Portable != "a_b" || cerr.Names != [2]string{"a.b", "a_b"} {
		t.Errorf("collision = %+v", cerr)
	}
	if !strings.Contains(err.Error(), `"a.b" and "a_b"`) {
		t.Errorf("error text %q does not name both names", err)
	}
}

func FuzzPortableName(f *testing.F) {
	for _, s := range []string{"", "a", "github.create_issue", "1x", "\u00e9", strings.Repeat("z.", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p := PortableName(name)
		if err := ValidateName(p); err != nil {
			t.Fatalf("PortableName(%q) = %q: %v", name, p, err)
		}
		if PortableName(p) != p {
			t.Fatalf("PortableName is not idempotent on %q", p)
		}
		if IsPortable(name) && p != name {
			t.Fatalf("portable name %q changed to %q", name, p)
		}
	})
}
