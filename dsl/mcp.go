package dsl

import (
	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
)

// FromExternalMCP names a toolset of an external MCP server that the
// application connects at run time under the name server. Give it to
// Toolset: with tools, the design declares their schemas (Args, Return) and
// registration checks them against the server's list; without tools, the
// toolset is whatever the server lists at run time, and an agent may only
// defer it whole (Deferred()) or use it immediately. The tool names of a
// declared toolset are the server's names in their portable form
// ("read_file"; "github.create_issue" is "github_create_issue").
//
//	var Disk = Toolset(FromExternalMCP("files", "fs"), func() {
//	    Tool("read_file", "Read a file", func() {
//	        Args(func() { Attribute("path", String); Required("path") })
//	        Return(String)
//	    })
//	})
//	var Everything = Toolset(FromExternalMCP("everything", "everything"))
func FromExternalMCP(server, toolset string) *expr.MCPSource {
	return &expr.MCPSource{Server: server, Toolset: toolset, At: expr.DesignLocation()}
}

// FromMCP names the toolset of a Goa service of the design that declares
// itself an MCP server (MCPServer) and marks methods as tools (Tool in a
// Method). The toolset's tools are those methods, with their payload and
// result types as schemas; the Toolset declares no tools of its own.
//
//	var Catalog = Toolset(FromMCP("catalog", "catalog"))
func FromMCP(service, toolset string) *expr.MCPSource {
	return &expr.MCPSource{Server: service, Service: service, Toolset: toolset, At: expr.DesignLocation()}
}

// MCPServer declares the current Goa service an MCP server named name at
// version version (the MCP handshake's server information). The methods it
// serves are marked with Tool; a Toolset(FromMCP(service, toolset)) makes
// them a toolset of the design.
//
//	var _ = Service("catalog", func() {
//	    MCPServer("catalog", "1.0.0")
//	    Method("find", func() {
//	        Payload(FindPayload)
//	        Result(Products)
//	        Tool("find", "Find products by keywords")
//	    })
//	})
func MCPServer(name, version string) {
	at := expr.DesignLocation()
	svc, ok := eval.Current().(*goaexpr.ServiceExpr)
	if !ok {
		misuse("MCPServer %q must be declared in a Service", name)
		return
	}
	expr.Root.AddMCPServer(svc, name, version, at)
}

// methodTool marks method as the MCP tool name of its service's server.
func methodTool(method *goaexpr.MethodExpr, name, description string, fn []func(), at expr.Location) {
	if len(fn) > 0 {
		misuse("Tool %q in a Method takes no DSL function: the method's Payload and Result are its schemas", name)
		return
	}
	expr.Root.MCPTools = append(expr.Root.MCPTools, &expr.MCPToolExpr{Method: method, Name: name, Description: description, At: at})
}
