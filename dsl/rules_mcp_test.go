package dsl_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	. "goa.design/goa/v3/dsl"
	goaexpr "goa.design/goa/v3/expr"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// filesToolset declares the external MCP toolset most MCP rule designs use.
func filesToolset() *expr.ToolsetExpr {
	return Toolset(FromExternalMCP("files", "fs"), func() {
		Tool("read_file", "Read a file", func() {
			Args(func() { Attribute("path", String); Required("path") })
		})
		Tool("list_directory", "List a directory", func() {
			Args(func() { Attribute("path", String); Required("path") })
		})
	})
}

// catalogService declares a Goa service served over MCP with two tools.
func catalogService() {
	Service("catalog", func() {
		Description("Product catalog")
		MCPServer("catalog", "1.0.0")
		Method("find", func() {
			Payload(func() { Attribute("query", String); Required("query") })
			Result(func() { Attribute("ids", ArrayOf(String)) })
			Tool("find", "Find products by keywords")
		})
		Method("get", func() {
			Payload(func() { Attribute("id", String); Required("id") })
			Result(func() { Attribute("name", String) })
			Tool("get_product", "Get a product by id")
		})
		Method("internal", func() {}) // not a tool
	})
}

// TestMCPDesign checks what a valid MCP design means: declared tools are
// deferred by name, a dynamic source only as a whole, and a FromMCP
// toolset's tools are its service's marked methods with their types.
func TestMCPDesign(t *testing.T) {
	root, err := designtest.Run(t, func() {
		files := filesToolset()
		everything := Toolset(FromExternalMCP("everything", "everything"))
		catalogService()
		catalog := Toolset(FromMCP("catalog", "products"))
		Service("assistant", func() {
			Agent("assistant", "Use every MCP toolset.", func() {
				Use(files, func() { Deferred("read_file") })
				Use(everything, func() { Deferred() })
				Use(catalog, func() { Deferred("get_product") })
			})
		})
	})
	if err != nil {
		t.Fatalf("valid design: %v", err)
	}
	uses := root.Agents[0].Uses
	for i, want := range [][]string{{"read_file"}, nil, {"get_product"}} {
		if diff := cmp.Diff(want, toolNames(uses[i].DeferredTools())); diff != "" {
			t.Errorf("use %d deferred tools (-want +got):\n%s", i, diff)
		}
	}
	if !uses[1].DeferAll() || !uses[1].Toolset.IsDynamic() {
		t.Errorf("dynamic use: DeferAll %v, IsDynamic %v, want both", uses[1].DeferAll(), uses[1].Toolset.IsDynamic())
	}
	if uses[0].Toolset.IsDynamic() || uses[2].Toolset.IsDynamic() {
		t.Error("a toolset with tools is dynamic")
	}
	catalog := uses[2].Toolset
	if diff := cmp.Diff([]string{"find", "get_product"}, toolNames(catalog.Tools)); diff != "" {
		t.Errorf("FromMCP tools (-want +got):\n%s", diff)
	}
	for i, method := range []string{"find", "get"} {
		tool := catalog.Tools[i]
		if tool.Method == nil || tool.Method.Name != method || tool.Args == nil || tool.Return == nil {
			t.Errorf("tool %q does not take the payload and result of method %q", tool.Name, method)
			continue
		}
		if tool.Args == tool.Method.Payload || !goaexpr.Equal(tool.Args.Type, tool.Method.Payload.Type) {
			t.Errorf("tool %q: Args is not a copy of the payload of method %q", tool.Name, method)
		}
	}
	if catalog.Description != "Product catalog" {
		t.Errorf("FromMCP toolset description %q, want the service's", catalog.Description)
	}
	if s := catalog.MCP.GoaServer(); s == nil || s.Name != "catalog" || s.Version != "1.0.0" || s.Toolset() != catalog {
		t.Errorf("FromMCP server %+v, want catalog 1.0.0 served by the toolset", s)
	}
}

func TestMCPRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"named selection judged against the declared tools", func() {
			files := filesToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(files, func() {
						Deferred("read_file")
						Deferred("readFile")   // ERR meant
						Deferred("write_file") // ERR unknown-tool
						Deferred("read_file")  // ERR dup
					})
				})
			})
		}, []wantErr{
			{`unknown tool "readFile" in Deferred("readFile"): toolset "fs" has no tool "readFile"; did you mean "read_file"?`, "meant"},
			{`unknown tool "write_file" in Deferred("write_file"): toolset "fs" has tools "list_directory", "read_file"`, "unknown-tool"},
			{`duplicate tool "read_file" in Deferred("read_file"): already selected by Deferred("read_file") at`, "dup"},
		}},
		{"a dynamic source accepts no named selection", func() {
			everything := Toolset(FromExternalMCP("everything", "everything"))
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(everything, func() { Deferred("echo") }) // ERR named
				})
			})
		}, []wantErr{{`named selection Deferred("echo") is not allowed on dynamic MCP toolset "everything": its tools are only known at run time`, "named"}}},
		{"declared MCP tools follow the tool rules", func() {
			Toolset(FromExternalMCP("files", "fs"), func() {
				Tool("read_file", "Read a file")
				Tool("read_file", "Read it again") // ERR dup-tool
				Tool("read.file", "Dotted")        // ERR bad-name
				Tool("write", "")                  // ERR no-description
				Tool("list", "List", func() {
					Args(String) // ERR args-shape
				})
				Version("1.0.0") // ERR version
			})
		}, []wantErr{
			{`duplicate tool "read_file" (first declared at`, "dup-tool"},
			{`tool name: invalid name: "read.file" contains '.'`, "bad-name"},
			{`empty description: models choose tools by their description`, "no-description"},
			{`Args must be an object`, "args-shape"},
			{`Version("1.0.0") on an MCP toolset: Version only pins a toolset declared with FromRegistry`, "version"},
		}},
		{"dynamic toolsets: names, one per server, no registry of the same name", func() {
			Registry("company", func() { URL("https://registry.example") })
			Toolset(FromExternalMCP("company", "tools"))    // ERR registry-name
			Toolset(FromExternalMCP("everything", "all"))   // first
			Toolset(FromExternalMCP("everything", "again")) // ERR second-dynamic
			Toolset(FromExternalMCP("bad server", "x"))     // ERR server-name
			Toolset(FromExternalMCP("ok", "bad toolset"))   // ERR toolset-name
			Toolset(FromExternalMCP("tagged", "t"), func() {
				Tags("fs")           // ERR tags
				Description("Files") // ERR description
			})
		}, []wantErr{
			{`MCP server "company" is named like registry "company"`, "registry-name"},
			{`MCP server "everything" already serves the dynamic toolset "all"`, "second-dynamic"},
			{`MCP server name in FromExternalMCP: invalid name: "bad server" contains ' '`, "server-name"},
			{`MCP toolset name: invalid name: "bad toolset" contains ' '`, "toolset-name"},
			{`Tags("fs") on a dynamic MCP toolset`, "tags"},
			{`Description on a dynamic MCP toolset`, "description"},
		}},
		{"overlap, duplicates and exports", func() {
			files := filesToolset()
			again := Toolset("files-again", FromExternalMCP("files", "fs"), func() {
				Tool("read_file", "Read a file")
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(files)
					Use(again) // ERR overlap
					Use(files) // ERR used-twice
				})
				Agent("exporter", "An agent.", func() {
					Export(files) // ERR export
				})
			})
		}, []wantErr{
			{`toolset "files-again" reaches toolset "fs" of MCP server "files", already used through toolset "fs"`, "overlap"},
			{`toolset "fs" is already used by this agent`, "used-twice"},
			{`MCP toolset "fs" cannot be exported`, "export"},
		}},
		{"declared and dynamic toolsets of one server in one agent", func() {
			files := filesToolset()
			everything := Toolset(FromExternalMCP("files", "everything"))
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(files)
					Use(everything, func() { Deferred() }) // ERR twice
				})
				Agent("reader", "An agent.", func() { Use(files) }) // one toolset of the server per agent
				Agent("tinkerer", "An agent.", func() { Use(everything) })
			})
		}, []wantErr{
			{`uses the dynamic MCP toolset "everything" and the declared MCP toolset "fs" (used at`, "twice"},
		}},
		{"FromMCP: unknown service and services without a server", func() {
			Service("catalogue", func() { Method("find", func() {}) })
			Toolset(FromMCP("catalog", "products")) // ERR unknown
			Toolset(FromMCP("catalogue", "items"))  // ERR fromservice-plain
		}, []wantErr{
			{`FromMCP: unknown service "catalog"; did you mean "catalogue"?`, "unknown"},
			{`FromMCP: service "catalogue" declares no MCP server: add MCPServer(name, version)`, "fromservice-plain"},
		}},
		{"FromMCP: no inline tools, one toolset per server", func() {
			catalogService()
			Toolset(FromMCP("catalog", "products"), func() {
				Tool("extra", "An inline tool") // ERR inline
			})
			Toolset(FromMCP("catalog", "again")) // ERR second
		}, []wantErr{
			{`inline Tool "extra" on a FromMCP toolset: its tools are the methods of service "catalog" marked with Tool`, "inline"},
			{`FromMCP: the MCP server of service "catalog" is already served by toolset "products"`, "second"},
		}},
		{"MCP servers and method tools", func() {
			Service("shop", func() {
				MCPServer("shop", "1.0.0")
				MCPServer("shop2", "2.0.0") // ERR repeat
				Method("buy", func() {
					Payload(String)
					Tool("buy", "Buy a product") // ERR payload
					Tool("purchase", "Again")    // ERR method-twice
				})
				Method("sell", func() {
					Tool("buy", "Sell a product") // ERR dup-name
				})
				Method("rate", func() {
					Tool("rate", "Rate", func() {}) // ERR dsl
				})
			})
			Toolset(FromMCP("shop", "shop"))
			Service("plain", func() {
				Method("list", func() {
					Tool("list", "List things") // ERR no-server
				})
			})
			Service("idle", func() {
				MCPServer("", "") // ERR idle
			})
		}, []wantErr{
			{`MCPServer repeats the MCP server of service "shop" (first declared at`, "repeat"},
			{`tool "buy" of toolset "shop": Args must be an object`, "payload"},
			{`method "buy" is already the MCP tool "buy"`, "method-twice"},
			{`duplicate tool "buy" (first declared at`, "dup-name"},
			{`Tool "rate" in a Method takes no DSL function`, "dsl"},
			{`service "plain" declares no MCP server: add MCPServer(name, version)`, "no-server"},
			{`empty MCP server name`, "idle"},
			{`empty MCP server version`, "idle"},
			{`marks no method as a tool`, "idle"},
			{`no toolset serves this MCP server: declare Toolset(FromMCP("idle", "<toolset>"))`, "idle"},
		}},
		{"MCP results are objects; FromMCP methods neither stream nor return views", func() {
			Toolset(FromExternalMCP("files", "fs"), func() {
				Tool("read_file", "Read a file", func() {
					Return(String) // ERR text-result
				})
				Tool("stat", "Stat a file", func() { Return(func() { Attribute("size", Int) }) })
			})
			view := ResultType("application/vnd.item", func() { Attribute("id", String) })
			Service("items", func() {
				MCPServer("items", "1.0.0")
				Method("list", func() {
					Result(ArrayOf(String))
					Tool("list", "List items") // ERR array-result
				})
				Method("get", func() {
					Result(view)
					Tool("get", "Get an item") // ERR view-result
				})
				Method("nested", func() {
					Payload(func() {
						Attribute("filter", func() { Attribute("tag", String) })
					})
					Tool("nested", "Nested inline object") // ERR nested
				})
				Method("watch", func() {
					StreamingResult(func() { Attribute("id", String) })
					Tool("watch", "Watch items") // ERR streaming
				})
			})
			Toolset(FromMCP("items", "items"))
		}, []wantErr{
			{`tool "read_file" of toolset "fs": the result of an MCP tool is an object (MCP's outputSchema and structuredContent are JSON objects), got string`, "text-result"},
			{`tool "list" of toolset "items": the result of an MCP tool is an object`, "array-result"},
			{`method "get" returns result type "Item", which Goa's endpoints return as a view: declare the result with Type`, "view-result"},
			{`the payload of method "nested" holds an object declared inline in an attribute: declare it with Type`, "nested"},
			{`method "watch" streams: an MCP tool call has one request and one result`, "streaming"},
		}},
		{"MCPServer outside a Service", func() {
			MCPServer("top", "1.0.0") // ERR top-server
			Toolset("t", func() {
				MCPServer("in-toolset", "1.0.0") // ERR toolset-server
				Tool("x", "X")
			})
		}, []wantErr{
			{`top-level: MCPServer "top" must be declared in a Service`, "top-server"},
			{`toolset "t": MCPServer "in-toolset" must be declared in a Service`, "toolset-server"},
		}},
		{"FromMCP tools follow the model-name and toolset-name rules", func() {
			catalogService()
			catalog := Toolset(FromMCP("catalog", "p"))
			local := Toolset("p_get", func() { Tool("product", "A product") })
			Toolset("p", func() { Tool("y", "Y") }) // ERR dup-toolset
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(catalog)
					Use(local) // ERR model-name
				})
			})
		}, []wantErr{
			{`duplicate toolset "p" (first declared at`, "dup-toolset"},
			{`tool "product" of toolset "p_get" and tool "get_product" of toolset "p" (used at`, "model-name"},
		}},
	})
}
