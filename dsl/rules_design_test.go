package dsl_test

import (
	"strings"
	"testing"

	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

func TestSourceRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"rule 8: same toolset used twice", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records)
					Use(records, func() { Deferred() }) // ERR used-twice
				})
			})
		}, []wantErr{{`toolset "records" is already used by this agent (at`, "used-twice"}}},
		{"rule 8: whole registry next to one of its toolsets", func() {
			company := companyRegistry()
			remote := Toolset(FromRegistry(company, "records"))
			billing := Toolset(FromRegistry(company, "billing"))
			Service("svc", func() {
				Agent("whole-first", "An agent.", func() {
					Use(company)
					Use(remote) // ERR whole-first
				})
				Agent("whole-last", "An agent.", func() {
					Use(billing)
					Use(company) // ERR whole-last
				})
			})
		}, []wantErr{
			{`Use of toolset "records" overlaps the Use of its whole registry "company"`, "whole-first"},
			{`Use of registry "company" as a whole overlaps the Use of its toolset "billing"`, "whole-last"},
		}},
		{"rule 8: same registry toolset through two declarations", func() {
			company := companyRegistry()
			remote := Toolset(FromRegistry(company, "records"))
			alias := Toolset("records-v2", FromRegistry(company, "records"), func() { Version("2.0.0") })
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(remote)
					Use(alias) // ERR alias
				})
			})
		}, []wantErr{{`toolset "records-v2" reaches registry toolset "records" of registry "company", already used through toolset "records"`, "alias"}}},
		{"rule 8: same registry used whole twice", func() {
			company := companyRegistry()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(company)
					Use(company) // ERR registry-twice
				})
			})
		}, []wantErr{{`registry "company" is already used by this agent`, "registry-twice"}}},
		{"rule 9: registry references stay references", func() {
			company := companyRegistry()
			remote := Toolset(FromRegistry(company, "records"), func() {
				Tool("search", "Search records") // ERR inline-tool
				Tags("crm")                      // ERR tags
				PublishTo(company)               // ERR publish
				Description("Records")           // ERR description
				Title("Records")                 // ERR title
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Export(remote)  // ERR export-toolset
					Export(company) // ERR export-registry
				})
			})
		}, []wantErr{
			{`toolset "records": inline Tool "search" on a registry toolset: its tools come from the registry`, "inline-tool"},
			{`toolset "records": Tags("crm") on a registry toolset: its tags come from the registry and cannot be overridden`, "tags"},
			{`toolset "records": PublishTo on a registry toolset: only a local toolset can be published`, "publish"},
			{`toolset "records": Description on a registry toolset: its description comes from the registry and cannot be overridden`, "description"},
			{`toolset "records": Title on a registry toolset: its title comes from the registry and cannot be overridden`, "title"},
			{`Export of toolset "records" in agent "agent": registry toolset "records" cannot be exported`, "export-toolset"},
			{`Export of registry "company" in agent "agent": registry "company" cannot be exported`, "export-registry"},
		}},
		{"rule 10: Version placement and syntax", func() {
			company := companyRegistry()
			Toolset(FromRegistry(company, "records"), func() {
				Version("v1.2") // ERR bad-version
			})
			Toolset(FromRegistry(company, "billing"), func() {
				Version("1.2.3")
				Version("1.2.4") // ERR twice
			})
			records := Toolset("local", func() {
				Tool("search", "Search records")
				Version("1.0.0") // ERR local
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Version("1.0.0") // ERR agent
					Use(records, func() {
						Version("1.0.0") // ERR use
					})
				})
			})
		}, []wantErr{
			{`toolset "records": invalid semantic version: "v1.2" must have the form MAJOR.MINOR.PATCH`, "bad-version"},
			{`toolset "billing": Version("1.2.4") repeats the version (first set to "1.2.3"`, "twice"},
			{`toolset "local": Version("1.0.0") in a local toolset: Version only pins a toolset declared with FromRegistry`, "local"},
			{`agent "agent" of service "svc": Version("1.0.0") is only valid in a Toolset declared with FromRegistry`, "agent"},
			{`Use of toolset "local" in agent "agent": Version("1.0.0") is only valid in a Toolset declared with FromRegistry`, "use"},
		}},
	})
}

func TestNameRules(t *testing.T) {
	long := strings.Repeat("a", 65)
	runDesignCases(t, []designCase{
		{"rule 11: duplicate names", func() {
			Registry("company", func() { URL("https://a.example") })
			Registry("company", func() { URL("https://b.example") }) // ERR dup-registry
			recordsToolset()
			Toolset("records", func() { // ERR dup-toolset
				Tool("search", "Search records")
				Tool("search", "Search records again") // ERR dup-tool
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {})
				Agent("agent", "The same agent.", func() {}) // ERR dup-agent
			})
			Service("other", func() {
				Agent("agent", "Same name, other service.", func() {}) // ERR other-service
			})
		}, []wantErr{
			{`duplicate registry "company" (first declared at`, "dup-registry"},
			{`duplicate toolset "records" (first declared at`, "dup-toolset"},
			{`tool "search" of toolset "records": duplicate tool "search" (first declared at`, "dup-tool"},
			{`duplicate agent "agent" in service "svc" (first declared at`, "dup-agent"},
			{`agent "agent" of service "other": agent "agent" is already declared in service "svc" (at rules_design_test.go:`, "other-service"},
		}},
		{"rule 11: names that generate one Go name", func() {
			Registry("com-pany", func() { URL("https://a.example") })
			Registry("company", func() { URL("https://b.example") }) // ERR pkg-registry
			Toolset("re-cords", func() { Tool("get", "Get a record") })
			Toolset("Records", func() { // ERR pkg-toolset
				Tool("get", "Get a record", func() {
					Args(func() { // ERR go-field
						Attribute("user_id", String)
						Attribute("userId", String)
						Attribute("nested", func() {
							Attribute("a-b", String)
							Attribute("a_b", String)
						})
					})
				})
			})
			Service("svc", func() {
				Agent("help_desk", "Help.", func() {})
				Agent("helpdesk", "Help too.", func() {}) // ERR pkg-agent
			})
		}, []wantErr{
			{`registry "company": generates Go package "company", already generated for registry "com-pany" (declared at`, "pkg-registry"},
			{`toolset "Records": generates Go package "records", already generated for toolset "re-cords" (declared at`, "pkg-toolset"},
			{`Args: attributes "user_id" and "userId" both map to Go field UserID; rename one`, "go-field"},
			{`Args attribute "nested": attributes "a-b" and "a_b" both map to Go field AB; rename one`, "go-field"},
			{`agent "helpdesk" of service "svc": generates Go package "helpdesk", already generated for agent "help_desk" of service "svc" (declared at`, "pkg-agent"},
		}},
		{"rule 11: names a model sees", func() {
			Registry("the company", func() { URL("https://a.example") }) // ERR registry-name
			Toolset("", func() {                                         // ERR empty-toolset
				Tool("1search", "Search records") // ERR digit-tool
				Tool(long, "A long name")         // ERR long-tool
				Tool("records.find", "Find")      // ERR dotted-tool
				Tool("_ok-name_2", "Fine")
			})
			Service("svc", func() {
				Agent("my agent", "An agent.", func() {}) // ERR agent-name
			})
		}, []wantErr{
			{`registry name: invalid name: "the company" contains ' ' at byte 3`, "registry-name"},
			{`toolset name: invalid name: the name is empty`, "empty-toolset"},
			{`tool name: invalid name: "1search" must start with a letter or '_'`, "digit-tool"},
			{`tool name: invalid name: "` + long + `" is 65 bytes long, the limit is 64`, "long-tool"},
			{`tool name: invalid name: "records.find" contains '.' at byte 7`, "dotted-tool"},
			{`agent name: invalid name: "my agent" contains ' '`, "agent-name"},
		}},
		{"rule 11: registry toolset names, each reported once", func() {
			company := companyRegistry()
			Toolset(FromRegistry(company, "bad name"))              // ERR defaulted-name
			Toolset("local name", FromRegistry(company, "records")) // ERR local-name
			Toolset("billing", FromRegistry(company, "billing v2")) // ERR source-name
		}, []wantErr{
			{`toolset "bad name": registry toolset name in FromRegistry: invalid name: "bad name" contains ' '`, "defaulted-name"},
			{`toolset "local name": toolset name: invalid name: "local name" contains ' '`, "local-name"},
			{`toolset "billing": registry toolset name in FromRegistry: invalid name: "billing v2" contains ' '`, "source-name"},
		}},
	})
}

// Rule 12: every name an agent can declare to a model is checked under the
// name the model knows it by, the runtime's own mapping of the tool
// identifier.
func TestModelNameRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"rule 12: names reserved for discovery", func() {
			Toolset("tool", func() {
				Tool("search", "Search for tools") // ERR tool-search
				Tool("lookup", "Look up a tool")
			})
			Toolset("tool_search", func() {
				Tool("tool_bm25", "Rank tools") // ERR bm25
			})
			Toolset("tool_search_tool", func() {
				Tool("regex", "Match tools") // ERR regex
			})
		}, []wantErr{
			{`tool "search" of toolset "tool": the model knows this tool as "tool_search", a name reserved for tool discovery (reserved: tool_search, call_tool, tool_search_tool_bm25, tool_search_tool_regex)`, "tool-search"},
			{`tool "tool_bm25" of toolset "tool_search": the model knows this tool as "tool_search_tool_bm25", a name reserved`, "bm25"},
			{`tool "regex" of toolset "tool_search_tool": the model knows this tool as "tool_search_tool_regex", a name reserved`, "regex"},
		}},
		{"rule 12: the model-facing name fits 64 characters whole", func() {
			Toolset(strings.Repeat("t", 40), func() {
				Tool(strings.Repeat("x", 23), "Fits exactly")
				Tool(strings.Repeat("y", 24), "One too many") // ERR long
			})
		}, []wantErr{
			{`the model knows this tool as "` + strings.Repeat("t", 40) + "_" + strings.Repeat("y", 24) + `", 65 characters long; toolset name, '_' and tool name together must fit in 64`, "long"},
		}},
		{"rule 12: two tools of an agent reach the model under one name", func() {
			ab := Toolset("a_b", func() { Tool("c", "C of a_b") })
			a := Toolset("a", func() { Tool("b_c", "B_c of a") })
			x := Toolset("x", func() { Tool("y_z", "Y_z of x") })
			xy := Toolset("x_y", func() { Tool("z", "Z of x_y") })
			Service("svc", func() {
				Agent("immediate", "Both immediate.", func() {
					Use(ab)
					Use(a) // ERR both-immediate
				})
				Agent("mixed", "One deferred.", func() {
					Use(ab, func() { Deferred() })
					Use(a) // ERR one-deferred
				})
				Agent("apart", "Each used by another agent only.", func() {
					Use(x)
				})
				Agent("apart-too", "No collision across agents.", func() {
					Use(xy)
				})
			})
		}, []wantErr{
			{`Use of toolset "a" in agent "immediate": tool "b_c" of toolset "a" and tool "c" of toolset "a_b" (used at`, "both-immediate"},
			{`Use of toolset "a" in agent "mixed": tool "b_c" of toolset "a" and tool "c" of toolset "a_b" (used at`, "one-deferred"},
		}},
		{"rule 12: an exported agent's tool collides with a local tool", func() {
			ab := Toolset("a_b", func() { Tool("c", "C of a_b") })
			a := Toolset("a", func() { Tool("run", "Run the helper") })
			Service("svc", func() {
				Agent("helper", "Helps.", func() {
					Export(a, func() { Tool("b_c", "Run the helper on b and c") })
				})
				Agent("user", "Uses the helper.", func() {
					Use(a, func() { Deferred() })
					Use(ab) // ERR exported
				})
			})
		}, []wantErr{
			{`tool "c" of toolset "a_b" and tool "b_c" of toolset "a" (used at`, "exported"},
		}},
	})
}

// Rule 13: agents that use each other's exports would start runs of
// themselves without end.
func TestExportCycleRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"rule 13: two agents use each other's exports", func() {
			planning := Toolset("planning", func() { Tool("plan", "Plan a task") })
			review := Toolset("review", func() { Tool("review", "Review a plan") })
			Service("svc", func() {
				Agent("planner", "Plans.", func() {
					Export(planning)
					Use(review) // not the closing use: the walk starts here
				})
				Agent("reviewer", "Reviews.", func() {
					Export(review)
					Use(planning, func() { Deferred() }) // ERR two
				})
			})
		}, []wantErr{
			{`agent "planner" uses toolset "review" of agent "reviewer" (at rules_design_test.go:`, "two"},
		}},
		{"rule 13: a longer cycle, next to a chain that is no cycle", func() {
			a := Toolset("a_tools", func() { Tool("run_a", "Run a") })
			b := Toolset("b_tools", func() { Tool("run_b", "Run b") })
			c := Toolset("c_tools", func() { Tool("run_c", "Run c") })
			leaf := Toolset("leaf_tools", func() { Tool("run_leaf", "Run leaf") })
			Service("svc", func() {
				Agent("leaf", "Uses nothing.", func() { Export(leaf) })
				Agent("top", "Uses a and the leaf.", func() { Use(a); Use(leaf) })
				Agent("a", "Uses b.", func() { Export(a); Use(b); Use(leaf) })
				Agent("b", "Uses c.", func() { Export(b); Use(c) })
				Agent("c", "Uses a.", func() {
					Export(c)
					Use(a) // ERR three
				})
			})
		}, []wantErr{
			{`agents use each other's exported tools in a cycle, so a run would start runs of itself without end: agent "a" uses toolset "b_tools" of agent "b" (at`, "three"},
		}},
	})
}

// Rule 14: Args is an object, and Args and Return hold only what a tool
// schema and a generated Go type express.
func TestToolShapeRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"rule 14: Args is an object; Return may be any type", func() {
			record := Type("Record", func() { Attribute("id", String) })
			id := Type("ID", String)
			Toolset("records", func() {
				Tool("find", "Find records", func() {
					Args(ArrayOf(String)) // ERR args-array
					Return(ArrayOf(record))
				})
				Tool("count", "Count records", func() {
					Args(Int, "How many") // ERR args-int
					Return(Int)
				})
				Tool("get", "Get a record", func() {
					Args(id) // ERR args-user-string
					Return(record)
				})
				Tool("lookup", "Look up a record", func() {
					Args(record)
					Return(String, "The record's name")
				})
				Tool("list", "List records", func() {
					Args(func() {})
					Return(MapOf(String, record))
				})
			})
		}, []wantErr{
			{`tool "find" of toolset "records": Args must be an object (a model sends tool arguments as a JSON object), got array`, "args-array"},
			{`tool "count" of toolset "records": Args must be an object`, "args-int"},
			{`tool "get" of toolset "records": Args must be an object`, "args-user-string"},
		}},
		{"rule 14: shapes a tool schema cannot express", func() {
			var node any = Type("Node", func() {
				Attribute("name", String)
				Attribute("children", ArrayOf("Node"))
			})
			Toolset("shapes", func() {
				Tool("find", "Find by one key", func() {
					Args(func() { // ERR union
						OneOf("key", func() {
							Attribute("id", String)
							Attribute("email", String)
						})
					})
				})
				Tool("device", "Find a device", func() {
					Args(func() { Attribute("mac", String, func() { Format(FormatMAC) }) }) // ERR format
				})
				Tool("walk", "Walk a tree", func() {
					Args(func() { Attribute("root", node) }) // ERR recursive
				})
				Tool("flags", "Set flags", func() {
					Return(MapOf(Boolean, String)) // ERR map-key
				})
				Tool("get", "Get by id", func() {
					Args(func() { Attribute("id", String); Required("missing") }) // ERR goa-validation
				})
				Tool("tag", "Tag things", func() {
					Args(func() { Attribute("extra", Any, func() { Default("none") }) }) // ERR any-default
				})
				Tool("options", "A property named like JSON tag options", func() {
					Args(func() { Attribute("n,string", String) }) // ERR tag-options
				})
			})
		}, []wantErr{
			{`tool "find" of toolset "shapes": Args attribute "key": OneOf (union) types have no tool schema form yet`, "union"},
			{`tool "device" of toolset "shapes": Args attribute "mac": Format("mac") has no JSON Schema 2020-12 counterpart; use Pattern instead`, "format"},
			{`tool "walk" of toolset "shapes": type "Node" attribute "children" items: type "Node" refers to itself`, "recursive"},
			{`tool "flags" of toolset "shapes": Return: map keys must be strings or integers to be JSON object keys, got boolean`, "map-key"},
			{`tool "get" of toolset "shapes": Args: Args - required field "missing" does not exist`, "goa-validation"},
			{`tool "tag" of toolset "shapes": Args attribute "extra": a default of an Any attribute cannot be told apart from an explicit null`, "any-default"},
			{`tool "options" of toolset "shapes": Args attribute "n,string": property name "n,string" holds ',', which a JSON struct tag's name cannot hold`, "tag-options"},
		}},
	})
}

func TestDeclarationRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"registry URL", func() {
			Registry("none", func() {})                            // ERR no-url
			Registry("relative", func() { URL("/registry") })      // ERR relative
			Registry("ftp", func() { URL("ftp://files.example") }) // ERR ftp
			Registry("empty", func() { URL("") })                  // ERR empty-url
			Registry("twice", func() {
				URL("https://a.example")
				URL("https://b.example") // ERR url-twice
			})
		}, []wantErr{
			{`registry "none": no URL`, "no-url"},
			{`registry "relative": URL "/registry" must be absolute with scheme http or https`, "relative"},
			{`registry "ftp": URL "ftp://files.example" must be absolute with scheme http or https`, "ftp"},
			{`registry "empty": URL "" must be absolute with scheme http or https`, "empty-url"},
			{`registry "twice": URL("https://b.example") repeats the URL (first set to "https://a.example" at`, "url-twice"},
		}},
		{"misplaced declarations", func() {
			Tool("search", "Search records") // ERR tool-top
			Use(nil)                         // ERR use-top
			Agent("agent", "An agent.", nil) // ERR agent-top
			Toolset("records", func() {
				Tool("search", "")        // ERR no-description
				Toolset("inner", func() { // ERR toolset-nested
					Tool("x", "X")
				})
			})
			Toolset("empty", func() {}) // ERR no-tools
			Toolset(42)                 // ERR bad-toolset-arg
		}, []wantErr{
			{`top-level: Tool "search" must be declared in a Toolset, an Export or a Method`, "tool-top"},
			{`top-level: Use must appear in an Agent or an MCPGateway`, "use-top"},
			{`top-level: Agent "agent" must be declared in a Service`, "agent-top"},
			{`tool "search" of toolset "records": empty description`, "no-description"},
			{`toolset "records": Toolset "inner" must be declared at the top level`, "toolset-nested"},
			{`toolset "empty": declares no tools`, "no-tools"},
			{`Toolset cannot use 42 (type int)`, "bad-toolset-arg"},
		}},
		{"values named as the design reads them", func() {
			ticket := Type("Ticket", func() { Attribute("id", String) })
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(ticket)    // ERR use-type
					Use("tickets") // ERR use-string
					Use(String)    // ERR use-primitive
				})
			})
			Toolset("records", func() {
				Tool("search", "Search records", func() {
					Return(Service) // ERR return-func
				})
			})
		}, []wantErr{
			{`Use cannot use type "Ticket" (a Goa type): give a toolset (the value of a Toolset) or a registry (the value of a Registry)`, "use-type"},
			{`Use cannot use the string "tickets": give a toolset`, "use-string"},
			{`Use cannot use type string (a Goa type): give a toolset`, "use-primitive"},
			{`Return cannot use a Go function that is not a DSL function (func()): give a Goa type or a DSL function`, "return-func"},
		}},
		{"tool types and tags", func() {
			Toolset("records", func() {
				Tags("crm", "crm") // ERR dup-tag
				Tool("search", "Search records", func() {
					Args(String) // ERR args-string
					Args(Int)    // ERR args-twice
					Return(42)   // ERR bad-return
					Tags("")     // ERR empty-tag
				})
			})
		}, []wantErr{
			{`duplicate tag "crm"`, "dup-tag"},
			{`Args must be an object (a model sends tool arguments as a JSON object), got string`, "args-string"},
			{`Args is already set for tool "search"`, "args-twice"},
			{`Return cannot use 42 (type int): give a Goa type or a DSL function`, "bad-return"},
			{`empty tag in Tags`, "empty-tag"},
		}},
		{"every error of a design in one run", func() {
			company := Registry("company", func() {}) // ERR all-url
			records := recordsToolset()
			remote := Toolset(FromRegistry(company, "records-remote"), func() {
				Version("1.2") // ERR all-version
			})
			Toolset("tool", func() {
				Tool("search", "Search tools", func() { // ERR all-reserved
					Args(String) // ERR all-args
				})
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Deferred() // ERR all-misplaced
					Use(records, func() {
						Deferred("serch") // ERR all-unknown
					})
					Use(remote, func() {
						Deferred("x") // ERR all-named
					})
					Use(records) // ERR all-twice
				})
			})
		}, []wantErr{
			{`registry "company": no URL`, "all-url"},
			{`invalid semantic version: "1.2"`, "all-version"},
			{`the model knows this tool as "tool_search", a name reserved`, "all-reserved"},
			{`Args must be an object`, "all-args"},
			{`Deferred must appear in a Use`, "all-misplaced"},
			{`unknown tool "serch"`, "all-unknown"},
			{`named selection Deferred("x") is not allowed`, "all-named"},
			{`toolset "records" is already used by this agent`, "all-twice"},
		}},
	})
}

// Goa's own DSL words report their misuse while the design runs, before
// validation, at the design line of the call.
func TestGoaWordMisuse(t *testing.T) {
	runDesignCases(t, []designCase{
		{"Description in a Tool", func() {
			Toolset("records", func() {
				Tool("search", "Search records", func() {
					Description("Tools take their description as an argument") // ERR goa-description
				})
			})
		}, []wantErr{{`invalid use of Description in tool "search" of toolset "records"`, "goa-description"}}},
		{"URL in a Toolset", func() {
			Toolset("records", func() {
				Tool("search", "Search records")
				URL("https://records.example") // ERR goa-url
			})
		}, []wantErr{{`invalid use of URL in toolset "records"`, "goa-url"}}},
	})
}
