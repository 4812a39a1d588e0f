package codegen_test

import (
	"strconv"
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
// recursive types, map keys, formats, defaults of Any) and agent names are
// validation's, in package dsl's rule tests.
func TestGenerateRejects(t *testing.T) {
	marker := func(m string) string {
		return "errors_test.go:" + strconv.Itoa(designtest.MarkerLine(t, "errors_test.go", m))
	}
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
		{"fields with one Go name", func() {
			Toolset("users", func() {
				Tool("get", "Get a user", func() {
					Args(func() {
						Attribute("user_id", String)
						Attribute("userId", String)
					})
				})
			})
		}, []string{`attributes "user_id" and "userId" both map to Go field UserID`}},
		{"toolsets with one package name", func() {
			Toolset("re-cords", func() { Tool("get", "Get a record") }) // ERR pkg-first
			Toolset("records", func() { Tool("get", "Get a record") })  // ERR pkg-second
		}, []string{
			"[" + marker("pkg-second") + `] toolset "records": package directory "toolsets/records" is already generated for toolset "re-cords"`,
			"(declared at " + marker("pkg-first") + ")",
		}},
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
