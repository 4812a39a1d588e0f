package expr_test

import (
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// packageIdents is what the errors say a toolset package declares.
const packageIdents = "Name, Toolset, ToolSchemas, Specs, Spec, SchemaFingerprint, SearchCounts, Executor, Register, RegistryExecutor"

// at returns "file:line" of the marker in this file, as errors print it.
func at(t *testing.T, marker string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Base(file) + ":" + strconv.Itoa(designtest.MarkerLine(t, file, marker))
}

// exact is a wanted error whose whole message after its location is msg.
func exact(msg, marker string) designtest.Want {
	return designtest.Want{Msg: msg, Marker: marker, Exact: true}
}

// TestGoIdentifierRules covers the declarations of a toolset package that
// would get one Go identifier: each is reported at the tool, Args or Return
// that makes the second claim, the way code generation declares them.
func TestGoIdentifierRules(t *testing.T) {
	designtest.RunCases(t, 0, []designtest.Case{
		{Name: "tool named like a type of the package", Design: func() {
			record := Type("Record", func() { Attribute("id", String) })
			Toolset("records", func() {
				Tool("get", "Get a record", func() {
					Return(record) // ERR get-return
				})
				Tool("record", "Record an event") // ERR tool-record
			})
		}, Want: []designtest.Want{
			exact(`tool "record" of toolset "records": Go identifier Record of the tool is already used by the struct of type "Record" in tool "get" (at `+at(t, "get-return")+`): rename one`, "tool-record"),
		}},
		{Name: "two tools with one Go identifier", Design: func() {
			Toolset("records", func() {
				Tool("get_record", "Get a record") // ERR snake
				Tool("getRecord", "Get a record")  // ERR camel
			})
		}, Want: []designtest.Want{
			exact(`tool "getRecord" of toolset "records": Go identifier GetRecord of the tool is already used by tool "get_record" (at `+at(t, "snake")+`): rename one`, "camel"),
		}},
		{Name: "type named like an earlier tool", Design: func() {
			record := Type("Record", func() { Attribute("id", String) })
			Toolset("records", func() {
				Tool("record", "Record an event") // ERR first-tool
				Tool("get", "Get a record", func() {
					Return(record) // ERR later-return
				})
			})
		}, Want: []designtest.Want{
			exact(`tool "get" of toolset "records": Go identifier Record of the struct of type "Record" is already used by tool "record" (at `+at(t, "first-tool")+`): rename one`, "later-return"),
		}},
		{Name: "tools named like what every toolset package declares", Design: func() {
			Toolset("records", func() {
				Tool("specs", "List specs")           // ERR specs
				Tool("schema-fingerprint", "Hash it") // ERR fingerprint
				Tool("registry_executor", "Serve it") // ERR registry-executor
			})
			Toolset(FromExternalMCP("files", "fs"), func() {
				Tool("server", "Describe the server") // ERR server
			})
		}, Want: []designtest.Want{
			exact(`tool "specs" of toolset "records": Go identifier Specs of the tool is already used by the toolset package itself (it declares `+packageIdents+`): rename one`, "specs"),
			exact(`tool "schema-fingerprint" of toolset "records": Go identifier SchemaFingerprint of the tool is already used by the toolset package itself (it declares `+packageIdents+`): rename one`, "fingerprint"),
			exact(`tool "registry_executor" of toolset "records": Go identifier RegistryExecutor of the tool is already used by the toolset package itself (it declares `+packageIdents+`): rename one`, "registry-executor"),
			exact(`tool "server" of toolset "fs": Go identifier Server of the tool is already used by the toolset package itself (it declares `+packageIdents+`, Server): rename one`, "server"),
		}},
		{Name: "structs of inline objects and user types", Design: func() {
			executor := Type("Executor", func() { Attribute("id", String) })
			getArgs := Type("GetArgs", func() { Attribute("id", String) })
			Toolset("records", func() {
				Tool("get", "Get a record", func() {
					Args(func() { Attribute("id", String) }) // ERR inline-args
				})
				Tool("put", "Put a record", func() {
					Args(getArgs) // ERR user-args
				})
				Tool("find", "Find records", func() {
					Args(func() { // ERR member-args
						Attribute("filter", func() { Attribute("name", String) })
					})
				})
				Tool("find_args_filter", "Filter records") // ERR member-tool
				Tool("run", "Run a record", func() {
					Return(executor) // ERR executor
				})
			})
		}, Want: []designtest.Want{
			exact(`tool "put" of toolset "records": Go identifier GetArgs of the struct of type "GetArgs" is already used by the struct of Args in tool "get" (at `+at(t, "inline-args")+`): rename one`, "user-args"),
			exact(`tool "find_args_filter" of toolset "records": Go identifier FindArgsFilter of the tool is already used by the struct of Args attribute "filter" in tool "find" (at `+at(t, "member-args")+`): rename one`, "member-tool"),
			exact(`tool "run" of toolset "records": Go identifier Executor of the struct of type "Executor" is already used by the toolset package itself (it declares `+packageIdents+`): rename one`, "executor"),
		}},
		{Name: "field that hides the method setting defaults", Design: func() {
			entry := Type("Entry", func() {
				Attribute("set_defaults", String)
				Attribute("sort", String, func() { Default("asc") })
			})
			Toolset("tickets", func() {
				Tool("search", "Search tickets", func() {
					Args(func() { // ERR search-args
						Attribute("set_defaults", Boolean)
						Attribute("limit", Int, func() { Default(20) })
					})
				})
				Tool("list", "List tickets", func() {
					Return(func() { // ERR list-return
						Attribute("entries", MapOf(String, ArrayOf(entry)))
					})
				})
			})
		}, Want: []designtest.Want{
			exact(`tool "search" of toolset "tickets": Args attribute "set_defaults": its Go field SetDefaults would hide the method SearchArgs.SetDefaults that sets the type's defaults; rename the attribute`, "search-args"),
			exact(`tool "list" of toolset "tickets": type "Entry" attribute "set_defaults": its Go field SetDefaults would hide the method Entry.SetDefaults that sets the type's defaults; rename the attribute`, "list-return"),
		}},
	})
}

// TestGoIdentifiersThatDoNotCollide checks designs whose names look alike
// but get distinct Go identifiers, or share one declaration.
func TestGoIdentifiersThatDoNotCollide(t *testing.T) {
	cases := []struct {
		name   string
		design func()
	}{
		{"a user type shared by two tools", func() {
			record := Type("Record", func() { Attribute("id", String) })
			Toolset("records", func() {
				Tool("get", "Get a record", func() { Args(record); Return(record) })
				Tool("put", "Put a record", func() { Args(record) })
			})
		}},
		{"a local tool named server", func() {
			Toolset("hosts", func() { Tool("server", "Describe a server") })
		}},
		{"a field named set_defaults in a type without defaults", func() {
			Toolset("tickets", func() {
				Tool("search", "Search tickets", func() {
					Args(func() {
						Attribute("set_defaults", Boolean)
						Attribute("limit", Int, func() { Default(20) })
						Required("limit")
					})
				})
			})
		}},
		{"tools of two toolsets with one name", func() {
			Toolset("a", func() { Tool("get", "Get a") })
			Toolset("b", func() { Tool("get", "Get b") })
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := designtest.Run(t, tc.design); err != nil {
				t.Fatalf("design does not validate: %v", err)
			}
		})
	}
}

// TestCodeGenerationRulesInOneRun checks that the rules code generation
// relies on (Go identifiers, defaults, the method that sets them) are
// reported in the same run as any other error of the design.
func TestCodeGenerationRulesInOneRun(t *testing.T) {
	designtest.RunCases(t, 0, []designtest.Case{
		{Name: "every error of a design in one run", Design: func() {
			Registry("company", func() {}) // ERR run-url
			Toolset("records", func() {
				Tool("specs", "List specs") // ERR run-specs
				Tool("search", "Search records", func() {
					Args(func() { // ERR run-args
						Attribute("set_defaults", Boolean)
						Attribute("limit", Int, func() { Maximum(100); Default(200) })
					})
				})
				Tool("lookup", "") // ERR run-description
			})
		}, Want: []designtest.Want{
			exact(`registry "company": no URL: declare URL("https://...") in the registry DSL`, "run-url"),
			exact(`tool "specs" of toolset "records": Go identifier Specs of the tool is already used by the toolset package itself (it declares `+packageIdents+`): rename one`, "run-specs"),
			exact(`tool "search" of toolset "records": Args attribute "limit": default 200 does not satisfy the attribute's own schema: maximum: got 200, want 100`, "run-args"),
			exact(`tool "search" of toolset "records": Args attribute "set_defaults": its Go field SetDefaults would hide the method SearchArgs.SetDefaults that sets the type's defaults; rename the attribute`, "run-args"),
			exact(`tool "lookup" of toolset "records": empty description: models choose tools by their description`, "run-description"),
		}},
	})
}

// TestMCPServerPackageRule checks that the MCP servers of two Goa services
// whose generated packages share a name are rejected, rather than one
// package overwriting the other.
func TestMCPServerPackageRule(t *testing.T) {
	designtest.RunCases(t, 0, []designtest.Case{
		{Name: "two services, one MCP server package", Design: func() {
			Service("front-end", func() {
				MCPServer("front", "1.0.0") // ERR first-server
				Method("find", func() {
					Payload(func() { Attribute("q", String); Required("q") })
					Tool("find", "Find")
				})
			})
			Service("frontend", func() {
				MCPServer("frontend", "1.0.0") // ERR second-server
				Method("find", func() {
					Payload(func() { Attribute("q", String); Required("q") })
					Tool("find", "Find")
				})
			})
			Toolset(FromMCP("front-end", "front"))
			Toolset(FromMCP("frontend", "frontend"))
		}, Want: []designtest.Want{
			exact(`MCP server "frontend" of service "frontend": generates Go package "frontendmcp", already generated for MCP server "front" of service "front-end" (declared at `+at(t, "first-server")+`): rename one`, "second-server"),
		}},
	})
}
