package openaiwire

import (
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestLegalName(t *testing.T) {
	long := strings.Repeat("a", 70)
	cases := []struct {
		name, want string
	}{
		{"records_lookup", "records_lookup"},
		{"get-time", "get-time"},
		{strings.Repeat("x", 64), strings.Repeat("x", 64)},
		{"github.create_issue", "github_create_issue"},
		{"9lives", "_9lives"},
		{long, long[:55] + "_" + "8b8bcae8"},
	}
	for _, tc := range cases {
		got := LegalName(tc.name)
		if tc.name == long {
			if len(got) != MaxNameLength || !strings.HasPrefix(got, long[:55]+"_") {
				t.Errorf("LegalName(70 a's) = %q, want 55 a's, '_' and 8 hex digits", got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("LegalName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	a, b := LegalName(long+"1"), LegalName(long+"2")
	if a == b {
		t.Errorf("two long names share the legal name %q", a)
	}
}

func TestNameMap(t *testing.T) {
	m := NewNameMap("request")
	if got, err := m.Add("a.b", LegalName("a.b")); err != nil || got != "a_b" {
		t.Fatalf("Add(a.b) = %q, %v", got, err)
	}
	if _, err := m.Add("a.b", "a_b"); err != nil {
		t.Fatalf("adding a pair twice: %v", err)
	}
	_, err := m.Add("a_b", LegalName("a_b"))
	var ve *model.ValidationError
	if !errors.As(err, &ve) || ve.Rule != RuleNameCollision || !strings.Contains(ve.Detail, `"a.b" and "a_b"`) {
		t.Fatalf("collision error = %v", err)
	}
	if _, err := m.Add("a.b", "other"); !errors.Is(err, model.ErrInvalidRequest) {
		t.Fatalf("one name on two wire names: %v", err)
	}
	if n, ok := m.Neutral("a_b"); !ok || n != "a.b" {
		t.Fatalf("Neutral(a_b) = %q, %v", n, ok)
	}
	if p, ok := m.Provider("a.b"); !ok || p != "a_b" {
		t.Fatalf("Provider(a.b) = %q, %v", p, ok)
	}
	if _, ok := m.Neutral("zzz"); ok || m.Len() != 1 {
		t.Fatalf("unknown name found, or Len = %d", m.Len())
	}
}

func TestParameters(t *testing.T) {
	got, err := Parameters("t", []byte(`{"type":"object","properties":{"n":{"type":"number","maximum":1.50}}}`))
	if err != nil {
		t.Fatal(err)
	}
	max := got["properties"].(map[string]any)["n"].(map[string]any)["maximum"]
	if s, ok := max.(interface{ String() string }); !ok || s.String() != "1.50" {
		t.Errorf("number text changed: %v (%T)", max, max)
	}
	if got, err := Parameters("t", nil); err != nil || got["type"] != "object" {
		t.Errorf("absent schema = %v, %v", got, err)
	}
	for _, bad := range []string{`[]`, `null`, `{"a":1} {}`, `{`, `"x"`} {
		if _, err := Parameters("t", []byte(bad)); !errors.Is(err, model.ErrInvalidRequest) {
			t.Errorf("Parameters(%s) error = %v, want a validation error", bad, err)
		}
	}
}

func FuzzParameters(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, `{"a":[1,2,{"b":null}]}`, `null`, `{"x":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parameters("t", raw)
		if err == nil && m == nil {
			t.Fatal("no error and no schema")
		}
	})
}

func FuzzLegalName(f *testing.F) {
	for _, s := range []string{"records_lookup", "github.create_issue", "é", "", strings.Repeat("z", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := LegalName(name)
		if got == "" || len(got) > MaxNameLength {
			t.Fatalf("LegalName(%q) = %q", name, got)
		}
		for i := 0; i < len(got); i++ {
			c := got[i]
			if c != '_' && c != '-' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
				t.Fatalf("LegalName(%q) = %q has byte %q", name, got, c)
			}
		}
	})
}
