package gonames_test

import (
	"go/token"
	"testing"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

func TestPackageName(t *testing.T) {
	cases := []struct{ name, kind, want string }{
		{"records", "toolset", "records"},
		{"Customer-Records", "toolset", "customerrecords"},
		{"map", "toolset", "maptoolset"},
		{"tools", "toolset", "toolstoolset"},
		{"_", "agent", "agent"},
		{"_1st", "registry", "registry1st"},
	}
	for _, tc := range cases {
		if got := gonames.Package(tc.name, tc.kind); got != tc.want {
			t.Errorf("Package(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzNames checks that every design name the design rules accept gives a
// package name and Go identifiers that compile.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"records", "lookup_record", "_", "A-b_C9", "go", "type", "_9", "json"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if expr.CheckName(name) != nil {
			return
		}
		for _, kind := range []string{gonames.KindToolset, gonames.KindAgent, gonames.KindRegistry} {
			pkg := gonames.Package(name, kind)
			if !token.IsIdentifier(pkg) || gonames.IsReservedPackage(pkg) {
				t.Fatalf("Package(%q, %q) = %q, not a usable package name", name, kind, pkg)
			}
		}
		for _, id := range []string{gonames.Exported(name), gonames.Unexported(name)} {
			if !token.IsIdentifier(id) {
				t.Fatalf("Go name of %q = %q, not an identifier", name, id)
			}
		}
		if !token.IsExported(gonames.Exported(name)) {
			t.Fatalf("Exported(%q) = %q is not exported", name, gonames.Exported(name))
		}
	})
}
