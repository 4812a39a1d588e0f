package dsl_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// TestMCPGatewayDesign checks what a valid gateway means: its uses follow
// the agents' Deferred rules and its mode defaults to "list".
func TestMCPGatewayDesign(t *testing.T) {
	tests := []struct {
		name     string
		mode     func()
		wantMode string
	}{
		{"default mode", func() {}, expr.GatewayModeList},
		{"call mode", func() { GatewayMode("call") }, expr.GatewayModeCall},
		{"both modes", func() { GatewayMode("both") }, expr.GatewayModeBoth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root, err := designtest.Run(t, func() {
				files := filesToolset()
				everything := Toolset(FromExternalMCP("everything", "everything"))
				catalogService()
				catalog := Toolset(FromMCP("catalog", "products"))
				company := Registry("company", func() { URL("https://registry.example") })
				records := Toolset(FromRegistry(company, "records"))
				partners := Registry("partners", func() { URL("https://partners.example") })
				MCPGateway("hub", "1.0.0", func() {
					Use(files, func() { Deferred("read_file") })
					Use(everything, func() { Deferred() })
					Use(catalog)
					Use(records)
					Use(partners, func() { Deferred() })
					tc.mode()
				})
			})
			if err != nil {
				t.Fatalf("valid design: %v", err)
			}
			g := root.MCPGateways[0]
			if g.Mode() != tc.wantMode {
				t.Errorf("mode %q, want %q", g.Mode(), tc.wantMode)
			}
			for i, want := range [][]string{{"read_file"}, nil, nil, nil, nil} {
				if diff := cmp.Diff(want, toolNames(g.Uses[i].DeferredTools())); diff != "" {
					t.Errorf("use %d deferred tools (-want +got):\n%s", i, diff)
				}
			}
			if !g.Uses[1].DeferAll() || g.Uses[2].DeferAll() || g.Uses[3].DeferAll() || !g.Uses[4].DeferAll() {
				t.Errorf("DeferAll: dynamic %v, catalog %v, registry toolset %v, registry %v; want true, false, false, true",
					g.Uses[1].DeferAll(), g.Uses[2].DeferAll(), g.Uses[3].DeferAll(), g.Uses[4].DeferAll())
			}
		})
	}
}

// TestMCPGatewayRules checks the gateway's design errors, each at its line.
func TestMCPGatewayRules(t *testing.T) {
	designtest.RunCases(t, 0, []designtest.Case{
		{Name: "unknown deferred tool", Design: func() {
			files := filesToolset()
			MCPGateway("hub", "1.0.0", func() {
				Use(files, func() {
					Deferred("write_file") // ERR unknown
				})
			})
		}, Want: []designtest.Want{{Msg: `Use of toolset "fs" in MCP gateway "hub": unknown tool "write_file" in Deferred("write_file"): toolset "fs" has tools "list_directory", "read_file"`, Marker: "unknown"}}},
		{Name: "toolset used twice", Design: func() {
			files := filesToolset()
			MCPGateway("hub", "1.0.0", func() {
				Use(files)
				Use(files) // ERR twice
			})
		}, Want: []designtest.Want{{Msg: `toolset "fs" is already used by this MCP gateway`, Marker: "twice"}}},
		{Name: "named deferral of a dynamic toolset", Design: func() {
			everything := Toolset(FromExternalMCP("everything", "everything"))
			MCPGateway("hub", "1.0.0", func() {
				Use(everything, func() {
					Deferred("echo") // ERR dynamic
				})
			})
		}, Want: []designtest.Want{{Msg: `named selection Deferred("echo") is not allowed on dynamic MCP toolset "everything"`, Marker: "dynamic"}}},
		{Name: "sources that are not MCP servers", Design: func() {
			local := Toolset("notes", func() { Tool("add", "Add a note") })
			MCPGateway("hub", "1.0.0", func() {
				Use(local) // ERR local
			})
		}, Want: []designtest.Want{
			{Msg: `MCP gateway "hub" cannot serve toolset "notes": it has no MCP server`, Marker: "local"},
		}},
		{Name: "whole registries", Design: func() {
			company := Registry("company", func() { URL("https://registry.example") })
			records := Toolset(FromRegistry(company, "records"))
			MCPGateway("hub", "1.0.0", func() {
				Use(company, func() { Deferred("find") }) // ERR wholenamed
				Use(company)                              // ERR wholetwice
				Use(records)                              // ERR included
			})
		}, Want: []designtest.Want{
			{Msg: `named selection Deferred("find") is not allowed on registry "company"`, Marker: "wholenamed"},
			{Msg: `registry "company" is already used by this MCP gateway`, Marker: "wholetwice"},
			{Msg: `registry "company" is served as a whole by this MCP gateway (at rules_gateway_test.go:`, Marker: "included"},
		}},
		{Name: "registry toolsets", Design: func() {
			company := Registry("company", func() { URL("https://registry.example") })
			records := Toolset(FromRegistry(company, "records"))
			archive := Toolset("archive", FromRegistry(company, "records"))
			notes := Toolset(FromExternalMCP("notebook", "notes"))
			remoteNotes := Toolset("remote_notes", FromRegistry(company, "notes"))
			MCPGateway("hub", "1.0.0", func() {
				Use(records, func() { Deferred("find") }) // ERR named
				Use(archive)                              // ERR same
				Use(notes)
				Use(remoteNotes) // ERR clash
			})
		}, Want: []designtest.Want{
			{Msg: `named selection Deferred("find") is not allowed on registry toolset "records"`, Marker: "named"},
			{Msg: `registry toolset "records" and registry toolset "archive" are both upstream "records" of this MCP gateway`, Marker: "same"},
			{Msg: `dynamic MCP toolset "notes" and registry toolset "remote_notes" are both upstream "notes" of this MCP gateway`, Marker: "clash"},
		}},
		{Name: "gateway shape", Design: func() {
			files := filesToolset()
			MCPGateway("hub", "", func() { // ERR version
				Use(files)
				GatewayMode("cached") // ERR mode
				GatewayMode("call")   // ERR repeat
			})
			MCPGateway("hub", "1.0.0", func() {}) // ERR empty
		}, Want: []designtest.Want{
			{Msg: `MCP gateway "hub": empty version`, Marker: "version"},
			{Msg: `GatewayMode("cached"): want one of ["list" "call" "both"]`, Marker: "mode"},
			{Msg: `GatewayMode("call") repeats GatewayMode("cached")`, Marker: "repeat"},
			{Msg: `duplicate MCP gateway "hub"`, Marker: "empty"},
			{Msg: `MCP gateway "hub" uses no toolset`, Marker: "empty"},
		}},
		{Name: "generated names clash", Design: func() {
			a := Toolset(FromExternalMCP("my_files", "a"))
			b := Toolset(FromExternalMCP("myFiles", "b"))
			MCPGateway("hub", "1.0.0", func() { Use(a) })
			MCPGateway("Hub", "1.0.0", func() { // ERR package
				Use(a)
				Use(b) // ERR field
			})
		}, Want: []designtest.Want{
			{Msg: `generates Go package "hub", already generated for MCP gateway "hub"`, Marker: "package"},
			{Msg: `MCP server "my_files" and MCP server "myFiles" both give the gateway's Servers field MyFilesTransport: rename one`, Marker: "field"},
		}},
		{Name: "two tools under one model-facing name", Design: func() {
			a := Toolset(FromExternalMCP("files", "a_b"), func() {
				Tool("c", "Read c", func() { Args(func() { Attribute("path", String) }) })
			})
			b := Toolset(FromExternalMCP("disk", "a"), func() {
				Tool("b_c", "Read b_c", func() { Args(func() { Attribute("path", String) }) })
			})
			MCPGateway("hub", "1.0.0", func() {
				Use(a)
				Use(b) // ERR shared
			})
		}, Want: []designtest.Want{{Msg: `"a_b_c"`, Marker: "shared"}}},
		{Name: "misplaced words", Design: func() {
			GatewayMode("call") // ERR mode-top
			Service("s", func() {
				MCPGateway("hub", "1.0.0", func() {}) // ERR in-service
			})
		}, Want: []designtest.Want{
			{Msg: `GatewayMode must appear in an MCPGateway`, Marker: "mode-top"},
			{Msg: `MCPGateway "hub" must be declared at the top level of the design`, Marker: "in-service"},
		}},
	})
}
