package codegen_test

import (
	"strings"
	"testing"

	. "goa.design/goa/v3/dsl"

	"github.com/goa-discovery/goa-discovery/codegen"
	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/internal/golden"
)

// TestGenerateRejects covers what validation cannot know and code
// generation refuses: each error names the offending declaration and says
// what to change. Shape errors (Args that is not an object, unions,
// recursive types, map keys, formats, defaults of Any), agent names and
// the Go names of packages and fields are validation's, in package dsl's
// rule tests.
func TestGenerateRejects(t *testing.T) {
	cases := []struct {
		name   string
		design func()
		want   []string
	}{
		{"tool named like a type", func() {
			record := Type("Record", func() { Attribute("id", String) })
			Toolset("records", func() {
				Tool("get", "Get a record", func() { Return(record) })
				Tool("record", "Record an event")
			})
		}, []string{"Go identifier Record", `tool "record"`, `type "Record"`}},
		{"tool named like a package function", func() {
			Toolset("records", func() { Tool("specs", "List specs") })
		}, []string{"Go identifier Specs", "the toolset package"}},
		{"tool of an MCP toolset named like its server constant", func() {
			Toolset(FromExternalMCP("files", "fs"), func() { Tool("server", "Describe the server") })
		}, []string{"Go identifier Server", "the toolset package"}},
		{"default outside its own schema", func() {
			Toolset("tickets", func() {
				Tool("search", "Search tickets", func() {
					Args(func() { Attribute("limit", Int, func() { Maximum(100); Default(200) }) })
				})
			})
		}, []string{`Args attribute "limit"`, "default 200 does not satisfy", "maximum"}},
		{"field that hides the defaults method", func() {
			Toolset("tickets", func() {
				Tool("search", "Search tickets", func() {
					Args(func() {
						Attribute("set_defaults", Boolean)
						Attribute("limit", Int, func() { Default(20) })
					})
				})
			})
		}, []string{`toolset "tickets"`, "field SetDefaults", `"set_defaults"`, "rename the attribute"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := designtest.Run(t, tc.design); err != nil {
				t.Fatalf("design does not validate: %v", err)
			}
			dir := t.TempDir()
			files, err := codegen.Generate(dir, "example.com/app/gen")
			if err == nil {
				t.Fatalf("Generate succeeded with %d files, want an error", len(files))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if left := golden.ReadTree(t, dir); len(left) != 0 {
				t.Errorf("a failed generation wrote %d files", len(left))
			}
		})
	}
}

// TestLocalToolMayBeNamedServer checks that only the package of an MCP
// toolset claims the identifier Server.
func TestLocalToolMayBeNamedServer(t *testing.T) {
	files := generate(t, func() {
		Toolset("hosts", func() { Tool("server", "Describe a server") })
	}, "example.com/local")
	if _, ok := files["toolsets/hosts/toolset.go"]; !ok {
		t.Fatalf("no toolset package in %d files", len(files))
	}
}
