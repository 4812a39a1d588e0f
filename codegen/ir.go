package codegen

// This file builds the intermediate representation that every emitter reads:
// the design's local toolsets, agents and registries, sorted by name and
// resolved down to what generated code states as final data (tool
// identifiers, JSON Schemas, Go types, search counts, fingerprints, deferred
// selections). Validation already proved the design's rules, the Go
// identifiers and defaults of generated packages included; building fails
// only on a bug.

import (
	"cmp"
	"fmt"
	"path"
	"slices"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// designIR is the resolved design.
type designIR struct {
	// importPath is the import path of the output directory.
	importPath string
	// toolsets are the local toolsets, sorted by name.
	toolsets []*toolsetIR
	// agents are the agents, sorted by name.
	agents []*agentIR
	// registries are the registries, sorted by name.
	registries []*registryIR
	// mcpServers are the MCP servers of Goa services, sorted by service.
	mcpServers []*mcpServerIR
	// dynamicMCP are the MCP toolsets without declared tools, sorted by
	// name.
	dynamicMCP []*dynamicMCPIR
	// gateways are the MCP gateways, sorted by name.
	gateways []*gatewayIR
}

// dynamicMCPIR is an MCP toolset whose tools are whatever its server lists
// at run time, and its generated package: it holds only what the design
// knows, the toolset's and the server's names.
type dynamicMCPIR struct {
	name       string // the design's name, which names the package
	toolset    string // the toolset's name in the runtime
	server     string
	pkg        string
	importPath string
}

// toolsetIR is a local toolset and its generated package.
type toolsetIR struct {
	expr        *expr.ToolsetExpr
	name        string
	title       string
	description string
	tags        []string
	pkg         string // package and directory name
	importPath  string
	// tools are in declaration order: the order of ToolSchemas and of
	// registration, which breaks search ties.
	tools []*toolIR
	// types are the named Go types of the package, in first-use order.
	types []*namedType
	// fingerprint is the SchemaFingerprint of the authored name.
	fingerprint tools.Fingerprint
	// exportedBy is the agent whose runs the tools are; nil for a toolset
	// of executed tools.
	exportedBy *agentIR
	// mcpServer is the name of the MCP server that serves the tools (its
	// session's name); "" for a toolset of executed tools.
	mcpServer string
}

// toolIR is one tool of a local toolset.
type toolIR struct {
	expr        *expr.ToolExpr
	toolset     *toolsetIR
	name        string
	ident       tools.Ident
	goName      string // the Ident constant
	title       string
	description string
	tags        []string
	// payloadSchema and resultSchema are JSON Schema documents;
	// resultSchema is nil when the tool returns nothing.
	payloadSchema []byte
	resultSchema  []byte
	// args is the struct type decoded from the payload; nil when the tool
	// takes no arguments.
	args *namedType
	// result is the Go type of the result; nil when the tool returns nothing.
	result *goType
	// counts are the tool's search word counts.
	counts toolsearch.Counts
}

// agentIR is an agent and its generated package.
type agentIR struct {
	expr        *expr.AgentExpr
	name        string
	service     string
	description string
	pkg         string
	importPath  string
	goName      string // prefix of Register<Agent>Agent and <Agent>AgentConfig
	immediate   []*toolIR
	deferred    []*toolIR
	sources     []*sourceIR
	// searchCounts are the counts of the deferred tools, merged.
	searchCounts toolsearch.CatalogCounts
}

// sourceIR is a registry source of an agent, or a dynamic MCP toolset,
// which the runtime lists among the registries under its server's name.
type sourceIR struct {
	registry *registryIR
	// dynamic is a dynamic MCP toolset; registry is nil then.
	dynamic  *dynamicMCPIR
	toolset  string // "" for the whole registry
	version  string
	deferred bool
}

// registryIR is a registry and its generated package.
type registryIR struct {
	expr        *expr.RegistryExpr
	name        string
	description string
	url         string
	pkg         string
	importPath  string
	// sources are the distinct sources agents declare, sorted by toolset
	// then version; deferral is per agent and is not part of them.
	sources []*sourceIR
}

// Subdirectories of the output directory, one per kind of package; expr
// keeps Goa services out of them.
const (
	toolsetsDir   = expr.ToolsetsDir
	agentsDir     = expr.AgentsDir
	registriesDir = expr.RegistriesDir
)

// buildIR resolves root into the representation the emitters read.
func buildIR(root *expr.RootExpr, importPath string) (*designIR, error) {
	d := &designIR{importPath: importPath}
	byToolset := map[*expr.ToolsetExpr]*toolsetIR{}
	byRegistry := map[*expr.RegistryExpr]*registryIR{}
	for _, r := range root.Registries {
		ir := &registryIR{expr: r, name: r.Name, description: r.Description, url: r.URL, pkg: packageName(r.Name, gonames.KindRegistry)}
		ir.importPath = path.Join(importPath, registriesDir, ir.pkg)
		byRegistry[r] = ir
		d.registries = append(d.registries, ir)
	}
	byDynamic := map[*expr.ToolsetExpr]*dynamicMCPIR{}
	byServer := map[*expr.ToolsetExpr]*mcpServerIR{}
	built := buildToolsets(root.Toolsets, importPath)
	for i, ts := range root.Toolsets {
		if ts.IsDynamic() {
			if ts.MCP != nil {
				ir := &dynamicMCPIR{name: ts.Name, toolset: ts.MCP.Toolset, server: ts.MCP.Server, pkg: packageName(ts.Name, gonames.KindToolset)}
				ir.importPath = path.Join(importPath, toolsetsDir, ir.pkg)
				byDynamic[ts] = ir
				d.dynamicMCP = append(d.dynamicMCP, ir)
			}
			continue
		}
		ir, err := built[i].ir, built[i].err
		if err != nil {
			return nil, err
		}
		byToolset[ts] = ir
		d.toolsets = append(d.toolsets, ir)
		if ts.MCP != nil && ts.MCP.IsGoa() {
			s, err := buildMCPServer(ir, importPath)
			if err != nil {
				return nil, err
			}
			d.mcpServers = append(d.mcpServers, s)
			byServer[ts] = s
		}
	}
	for _, a := range root.Agents {
		ir, err := buildAgent(a, importPath, byToolset, byRegistry, byDynamic)
		if err != nil {
			return nil, err
		}
		for _, e := range a.Exports {
			if ts := byToolset[e.Toolset]; ts != nil {
				ts.exportedBy = ir
			}
		}
		d.agents = append(d.agents, ir)
	}
	for _, g := range root.MCPGateways {
		d.gateways = append(d.gateways, buildGateway(g, importPath, byToolset, byServer, byDynamic))
	}
	slices.SortFunc(d.gateways, func(a, b *gatewayIR) int { return cmp.Compare(a.name, b.name) })
	slices.SortFunc(d.toolsets, func(a, b *toolsetIR) int { return cmp.Compare(a.name, b.name) })
	slices.SortFunc(d.agents, func(a, b *agentIR) int { return cmp.Compare(a.name, b.name) })
	slices.SortFunc(d.registries, func(a, b *registryIR) int { return cmp.Compare(a.name, b.name) })
	slices.SortFunc(d.mcpServers, func(a, b *mcpServerIR) int { return cmp.Compare(a.service, b.service) })
	slices.SortFunc(d.dynamicMCP, func(a, b *dynamicMCPIR) int { return cmp.Compare(a.name, b.name) })
	for _, r := range d.registries {
		slices.SortFunc(r.sources, func(a, b *sourceIR) int {
			return cmp.Or(cmp.Compare(a.toolset, b.toolset), cmp.Compare(a.version, b.version))
		})
	}
	return d, nil
}

// builtToolset is the result of buildToolset.
type builtToolset struct {
	ir  *toolsetIR
	err error
}

// buildToolsets resolves the local toolsets of toolsets on every CPU, since
// schemas, search counts and fingerprints are the bulk of building the IR;
// the result is indexed like toolsets, and empty for a dynamic one (a
// registry toolset, an MCP toolset without declared tools).
// Building a toolset only reads the design.
func buildToolsets(toolsets []*expr.ToolsetExpr, importPath string) []builtToolset {
	built := make([]builtToolset, len(toolsets))
	parallel(len(toolsets), func(i int) {
		if ts := toolsets[i]; !ts.IsDynamic() {
			built[i].ir, built[i].err = buildToolset(ts, importPath)
		}
	})
	return built
}

// buildAgent resolves an agent's immediate and deferred tools, in use order
// then toolset declaration order (deferred tools in order of first
// selection), and its registry sources.
func buildAgent(a *expr.AgentExpr, importPath string, byToolset map[*expr.ToolsetExpr]*toolsetIR, byRegistry map[*expr.RegistryExpr]*registryIR, byDynamic map[*expr.ToolsetExpr]*dynamicMCPIR) (*agentIR, error) {
	ir := &agentIR{
		expr: a, name: a.Name, service: a.Service.Name, description: a.Description,
		pkg: packageName(a.Name, gonames.KindAgent), goName: goName(a.Name),
	}
	ir.importPath = path.Join(importPath, agentsDir, ir.pkg)
	var counts []toolsearch.Counts
	for _, u := range a.Uses {
		switch {
		case u.Registry != nil:
			ir.sources = append(ir.sources, addSource(byRegistry[u.Registry], "", "", u.DeferAll()))
		case u.Toolset.IsRegistrySourced():
			src := u.Toolset.Source
			ir.sources = append(ir.sources, addSource(byRegistry[src.Registry], src.Toolset, u.Toolset.Version(), u.DeferAll()))
		case u.Toolset.IsDynamic():
			dyn := byDynamic[u.Toolset]
			ir.sources = append(ir.sources, &sourceIR{dynamic: dyn, toolset: dyn.toolset, deferred: u.DeferAll()})
		default:
			ts := byToolset[u.Toolset]
			deferred := map[*expr.ToolExpr]bool{}
			for _, t := range u.DeferredTools() {
				deferred[t] = true
				tool := ts.tool(t)
				ir.deferred = append(ir.deferred, tool)
				counts = append(counts, tool.counts)
			}
			for _, t := range ts.tools {
				if !deferred[t.expr] {
					ir.immediate = append(ir.immediate, t)
				}
			}
		}
	}
	ir.searchCounts = toolsearch.NewCatalogCounts(counts)
	if len(counts) > 0 {
		// The generated package builds the same index; prove here that it can.
		if _, err := toolsearch.NewIndex(ir.searchCounts); err != nil {
			return nil, fmt.Errorf("[%s] %s: search index of the deferred tools: %w", a.At, a.EvalName(), err)
		}
	}
	return ir, nil
}

// addSource records an agent's source in its registry's distinct sources
// and returns the agent's own source.
func addSource(r *registryIR, toolset, version string, deferred bool) *sourceIR {
	if !slices.ContainsFunc(r.sources, func(s *sourceIR) bool { return s.toolset == toolset && s.version == version }) {
		r.sources = append(r.sources, &sourceIR{registry: r, toolset: toolset, version: version})
	}
	return &sourceIR{registry: r, toolset: toolset, version: version, deferred: deferred}
}

// tool returns the IR of a tool of the toolset.
func (ts *toolsetIR) tool(t *expr.ToolExpr) *toolIR {
	for _, tool := range ts.tools {
		if tool.expr == t {
			return tool
		}
	}
	panic(fmt.Sprintf("bug: %s is not in toolset %q", t.EvalName(), ts.name)) // Finalize resolves deferred tools from the toolset itself
}
