package expr

// This file keeps Goa's generated service packages and goa-discovery's
// generated packages apart. Both generators write under the same gen
// directory ("goa gen" runs goa-discovery as a plugin): Goa puts each service
// in gen/<service>, goa-discovery puts its packages in gen/toolsets,
// gen/agents and gen/registries, so a service named like one of those would
// mix two generators' files in one package.

import (
	"reflect"
	"runtime"
	"slices"

	goacodegen "goa.design/goa/v3/codegen"
	goaexpr "goa.design/goa/v3/expr"
)

// Subdirectories of the output directory that goa-discovery generates, one
// per kind of package. No Goa service may generate into them.
const (
	// ToolsetsDir holds one package per local toolset.
	ToolsetsDir = "toolsets"
	// AgentsDir holds one package per agent.
	AgentsDir = "agents"
	// RegistriesDir holds one package per registry.
	RegistriesDir = "registries"
	// MCPServersDir holds one package per MCP server of a Goa service.
	MCPServersDir = "mcpservers"
	// MCPGatewaysDir holds one package per MCP gateway.
	MCPGatewaysDir = "mcpgateways"
)

// GeneratedDirs lists ToolsetsDir, AgentsDir, RegistriesDir,
// MCPServersDir and MCPGatewaysDir.
func GeneratedDirs() []string {
	return []string{ToolsetsDir, AgentsDir, RegistriesDir, MCPServersDir, MCPGatewaysDir}
}

// validateGoaServiceDirs reports every Goa service whose generated package
// directory is one of GeneratedDirs, at the design line of its DSL.
func (r *RootExpr) validateGoaServiceDirs(p *problems) {
	if goaexpr.Root == nil {
		return
	}
	for _, svc := range goaexpr.Root.Services {
		dir := goaServiceDir(svc.Name)
		if !slices.Contains(GeneratedDirs(), dir) {
			continue
		}
		p.add(svc, funcLocation(svc.DSLFunc),
			"Goa generates this service into gen/%s, where goa-discovery generates its %s packages: rename the service", dir, dir)
	}
}

// goaServiceDir returns the directory under gen that Goa generates the
// service named name into, computed the way Goa's service generator does.
func goaServiceDir(name string) string {
	return goacodegen.SnakeCase(goacodegen.Goify(name, false))
}

// funcLocation returns where the function literal fn is written in the
// design: Goa records no location for its own expressions, but their DSL
// function is the design's code. A nil fn has no location.
func funcLocation(fn func()) Location {
	if fn == nil {
		return Location{}
	}
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	if f == nil {
		return Location{}
	}
	file, line := f.FileLine(f.Entry())
	return Location{File: file, Line: line}
}
