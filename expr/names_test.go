package expr_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/expr"
)

func TestCheckName(t *testing.T) {
	cases := []struct {
		name string
		want string // substring of the error, "" when valid
	}{
		{"search", ""},
		{"_private", ""},
		{"find-records_2", ""},
		{"A", ""},
		{strings.Repeat("x", 64), ""},
		{"", "the name is empty"},
		{strings.Repeat("x", 65), "is 65 bytes long, the limit is 64"},
		{"1search", "must start with a letter or '_'"},
		{"-search", "must start with a letter or '_'"},
		{"records.search", `contains '.' at byte 7`},
		{"héllo", `contains 'é' at byte 1; use ASCII letters`},
		{"a\xffb", "is not valid UTF-8 at byte 1"},
		{"éclair", "must start with a letter or '_'"},
		{"with space", `contains ' ' at byte 4`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := expr.CheckName(tc.name)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckName(%q) = %v, want nil", tc.name, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, expr.ErrInvalidName) {
				t.Fatalf("CheckName(%q) = %v, want an ErrInvalidName containing %q", tc.name, err, tc.want)
			}
		})
	}
}

func TestCheckVersion(t *testing.T) {
	cases := []struct {
		version string
		want    string // substring of the error, "" when valid
	}{
		{"1.2.3", ""},
		{"0.0.0", ""},
		{"10.20.30", ""},
		{"1.0.0-alpha", ""},
		{"1.0.0-alpha.1", ""},
		{"1.0.0-0.3.7", ""},
		{"1.0.0-x-y-z.--", ""},
		{"1.0.0+20130313144700", ""},
		{"1.0.0-beta+exp.sha.5114f85", ""},
		{"1.0.0+001", ""},
		{"", "must have the form MAJOR.MINOR.PATCH"},
		{"1.2", "must have the form MAJOR.MINOR.PATCH"},
		{"v1.2.3", `major version "v1" is not a number`},
		{"1.02.3", `minor version "02" has a leading zero`},
		{"1.2.x", `patch version "x" is not a number`},
		{"1..3", "minor version is empty"},
		{"1.2.3-", "pre-release has an empty identifier"},
		{"1.2.3-01", `pre-release identifier "01" has a leading zero`},
		{"1.2.3-a_b", `pre-release identifier "a_b" contains '_'`},
		{"1.2.3-bêta", `pre-release identifier "bêta" contains 'ê'`},
		{"1.2.3+", "build metadata has an empty identifier"},
		{"1.2.3+a..b", "build metadata has an empty identifier"},
	}
	for _, tc := range cases {
		t.Run(tc.version, func(t *testing.T) {
			err := expr.CheckVersion(tc.version)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckVersion(%q) = %v, want nil", tc.version, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, expr.ErrInvalidVersion) {
				t.Fatalf("CheckVersion(%q) = %v, want an ErrInvalidVersion containing %q", tc.version, err, tc.want)
			}
		})
	}
}

// semverOracle is the regular expression that semver.org publishes for
// SemVer 2.0.0; CheckVersion must accept exactly what it matches.
var semverOracle = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

func FuzzCheckVersion(f *testing.F) {
	for _, seed := range []string{"1.2.3", "1.0.0-alpha.1+build.5", "01.2.3", "1.2.3-01", "1.2", "v1.2.3", "1.2.3-a..b"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		err := expr.CheckVersion(v)
		if want := semverOracle.MatchString(v); want != (err == nil) {
			t.Fatalf("CheckVersion(%q) = %v, semver.org regexp match = %v", v, err, want)
		}
	})
}

// nameOracle is the name rule as a regular expression.
var nameOracle = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

func FuzzCheckName(f *testing.F) {
	for _, seed := range []string{"search", "_x", "1x", "records.search", "", strings.Repeat("a", 65)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := expr.CheckName(name)
		if want := nameOracle.MatchString(name); want != (err == nil) {
			t.Fatalf("CheckName(%q) = %v, oracle match = %v", name, err, want)
		}
	})
}
