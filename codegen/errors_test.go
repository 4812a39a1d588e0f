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
// what to change.
func TestGenerateRejects(t *testing.T) {
	marker := func(m string) string {
		return "errors_test.go:" + strconv.Itoa(designtest.MarkerLine(t, "errors_test.go", m))
	}
	cases := []struct {
		name   string
		design func()
		want   []string
	}{
		{"arguments that are not an object", func() {
			Toolset("records", func() {
				Tool("analyze", "Analyze records", func() { Args(ArrayOf(String)) })
			})
		}, []string{`tool "analyze" of toolset "records"`, "Args must be an object", "errors_test.go:"}},
		{"union type", func() {
			Toolset("records", func() {
				Tool("find", "Find records", func() {
					Args(func() {
						OneOf("key", func() {
							Attribute("id", String)
							Attribute("email", String)
						})
					})
				})
			})
		}, []string{`Args attribute "key"`, "OneOf"}},
		{"format without a JSON Schema counterpart", func() {
			Toolset("devices", func() {
				Tool("find", "Find a device", func() {
					Args(func() { Attribute("mac", String, func() { Format(FormatMAC) }) })
				})
			})
		}, []string{`Args attribute "mac"`, `Format("mac")`, "Pattern"}},
		{"recursive type", func() {
			var node any
			node = Type("Node", func() {
				Attribute("name", String)
				Attribute("children", ArrayOf("Node"))
			})
			_ = node
			Toolset("trees", func() {
				Tool("walk", "Walk a tree", func() { Args(func() { Attribute("root", node) }) })
			})
		}, []string{`type "Node" refers to itself`}},
		{"map key that is not a string or integer", func() {
			Toolset("flags", func() {
				Tool("set", "Set flags", func() {
					Args(func() { Attribute("flags", MapOf(Boolean, String)) })
				})
			})
		}, []string{"map keys must be strings or integers"}},
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
		{"agents with one name in two services", func() {
			ts := Toolset("records", func() { Tool("get", "Get a record") })
			Service("a", func() { Agent("helper", "Help.", func() { Use(ts) }) })
			Service("b", func() { Agent("helper", "Help.", func() { Use(ts) }) })
		}, []string{`agent "helper" of service "b"`, "registers agents by name"}},
		{"default outside its own schema", func() {
			Toolset("tickets", func() {
				Tool("search", "Search tickets", func() {
					Args(func() { Attribute("limit", Int, func() { Maximum(100); Default(200) }) })
				})
			})
		}, []string{`Args attribute "limit"`, "default 200 does not satisfy", "maximum"}},
		{"default of an Any attribute", func() {
			Toolset("tickets", func() {
				Tool("tag", "Tag tickets", func() {
					Args(func() { Attribute("extra", Any, func() { Default("none") }) })
				})
			})
		}, []string{`Args attribute "extra"`, "explicit null", "give the attribute a type"}},
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
