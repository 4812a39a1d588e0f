package codegen

// This file emits the package of an agent: its definition (name,
// description, immediate and deferred tool identifiers, registry sources,
// search index of the deferred local tools), the typed registration
// Register<Agent>Agent and NewClient. Nothing here reads a catalog or the
// network: the design fixed all of it.

import (
	"path"
	"reflect"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// agentFiles returns the files of an agent package.
func agentFiles(a *agentIR) ([]*genFile, error) {
	dir := path.Join(agentsDir, a.pkg)
	files := []*genFile{docFile(dir, a.pkg, agentPackageDoc(a)), agentMainFile(a, path.Join(dir, "agent.go"))}
	if len(a.deferred) > 0 {
		search, err := agentSearchFile(a, path.Join(dir, "search.go"))
		if err != nil {
			return nil, err
		}
		files = append(files, search)
	}
	return files, nil
}

// agentMainFile emits the definition, the registration and the client.
func agentMainFile(a *agentIR, p string) *genFile {
	g := newFile(p, a.pkg)
	f := g.file
	f.Const().Defs(
		docf("Name is the name of the agent in the runtime."),
		jen.Id("Name").Op("=").Lit(a.name),
		docf("Service is the Goa service that declares the agent."),
		jen.Id("Service").Op("=").Lit(a.service),
		docf("Description says what the agent does."),
		jen.Id("Description").Op("=").Lit(a.description),
	)
	f.Add(identsFunc("ImmediateTools", "ImmediateTools returns the local tools that every request of the agent declares, in use order. Each call returns a fresh slice.", a.immediate))
	f.Add(identsFunc("DeferredTools", "DeferredTools returns the local tools that the agent loads through discovery, in use order. Each call returns a fresh slice.", a.deferred))
	f.Add(registrySourcesFunc(a))
	f.Add(definitionFunc(a))
	f.Add(agentConfigType(a))
	f.Add(registerAgentFunc(a))
	f.Add(doc("NewClient returns the client that starts and continues runs of the agent in rt. It does no lookup until a run starts."))
	f.Func().Id("NewClient").Params(jen.Id("rt").Op("*").Qual(runtimePkg, "Runtime")).Op("*").Qual(runtimePkg, "AgentClient").Block(
		jen.Return(jen.Id("rt").Dot("Client").Call(jen.Id("Name"))),
	)
	return g
}

// agentPackageDoc is the package comment of an agent package.
func agentPackageDoc(a *agentIR) string {
	return packageComment(
		"Package "+a.pkg+" defines agent \""+a.name+"\" of service \""+a.service+"\": "+sentence(a.description),
		"Definition returns what the design fixed, Register"+a.goName+"Agent registers the agent with a planner, and NewClient starts its runs.")
}

// identsFunc emits a function returning tool identifiers, referenced through
// their toolset packages.
func identsFunc(name, comment string, list []*toolIR) jen.Code {
	items := make([]jen.Code, len(list))
	for i, t := range list {
		items[i] = jen.Qual(t.toolset.importPath, t.goName)
	}
	ret := jen.Nil()
	if len(items) > 0 {
		ret = jen.Index().Qual(toolsPkg, "Ident").Values(items...)
	}
	return jen.Add(doc(comment)).Line().Func().Id(name).Params().Index().Qual(toolsPkg, "Ident").Block(jen.Return(ret))
}

// registrySourcesFunc emits RegistrySources, and MCPToolsets when the
// agent uses a dynamic MCP toolset.
func registrySourcesFunc(a *agentIR) jen.Code {
	var registries, mcp []jen.Code
	for _, s := range a.sources {
		if s.dynamic != nil {
			mcp = append(mcp, mcpToolsetLit(s))
		} else {
			registries = append(registries, registrySourceLit(s))
		}
	}
	ret := jen.Nil()
	if len(registries) > 0 {
		ret = jen.Index().Qual(runtimePkg, "RegistrySource").Custom(multiLine, registries...)
	}
	code := jen.Add(doc("RegistrySources returns the agent's registry sources, with their pinned versions, in use order. Each call returns a fresh slice.")).
		Line().Func().Id("RegistrySources").Params().Index().Qual(runtimePkg, "RegistrySource").Block(jen.Return(ret))
	if len(mcp) == 0 {
		return code
	}
	return code.Line().Line().Add(doc("MCPToolsets returns the dynamic MCP toolsets the agent uses, in use order: each is the list its server's session serves, registered with the toolset package's Register. Each call returns a fresh slice.")).
		Line().Func().Id("MCPToolsets").Params().Index().Qual(runtimePkg, "MCPToolset").Block(
		jen.Return(jen.Index().Qual(runtimePkg, "MCPToolset").Custom(multiLine, mcp...)),
	)
}

// registrySourceLit emits a registry source inside a slice.
func registrySourceLit(s *sourceIR) jen.Code {
	var fields keyed
	fields.set("Registry", jen.Qual(s.registry.importPath, "Name"))
	if s.toolset != "" {
		fields.set("Toolset", jen.Lit(s.toolset))
	}
	if s.version != "" {
		fields.set("Version", jen.Lit(s.version))
	}
	if s.deferred {
		fields.set("Deferred", jen.True())
	}
	return jen.Values(fields...)
}

// mcpToolsetLit emits a dynamic MCP toolset inside a slice.
func mcpToolsetLit(s *sourceIR) jen.Code {
	var fields keyed
	fields.set("Server", jen.Qual(s.dynamic.importPath, gonames.ServerConst))
	fields.set("Toolset", jen.Qual(s.dynamic.importPath, gonames.ToolsetNameConst))
	if s.deferred {
		fields.set("Deferred", jen.True())
	}
	return jen.Values(fields...)
}

// definitionFunc emits Definition.
func definitionFunc(a *agentIR) jen.Code {
	var fields keyed
	fields.set("Name", jen.Id("Name"))
	fields.set("Description", jen.Id("Description"))
	fields.set("Immediate", jen.Id("ImmediateTools").Call())
	fields.set("Deferred", jen.Id("DeferredTools").Call())
	if len(a.deferred) > 0 {
		fields.set("DeferredIndex", jen.Id("mustSearchIndex").Call())
	}
	fields.set("Registries", jen.Id("RegistrySources").Call())
	if slices.ContainsFunc(a.sources, func(s *sourceIR) bool { return s.dynamic != nil }) {
		fields.set("MCPToolsets", jen.Id("MCPToolsets").Call())
	}
	return jen.Add(doc("Definition returns the agent's registration as the design defines it, without a planner: name, description, immediate and deferred tools, the search index of the deferred tools and the registry sources. It reads no catalog and makes no network call.")).
		Line().Func().Id("Definition").Params().Qual(runtimePkg, "AgentRegistration").Block(
		jen.Return(jen.Qual(runtimePkg, "AgentRegistration").Add(fields.lines())),
	)
}

// agentConfigType emits <Agent>AgentConfig.
func agentConfigType(a *agentIR) jen.Code {
	name := a.goName + "AgentConfig"
	return jen.Add(docf("%s is what the application adds to the agent's definition when it registers it.", name)).Line().
		Type().Id(name).Struct(
		doc("Planner plans each step of a run. Required."),
		jen.Id("Planner").Qual(runtimePkg, "Planner"),
		doc("DiscoveryDescription is appended to the discovery tool's description."),
		jen.Id("DiscoveryDescription").String(),
		doc("ConversationCatalog renders emulated discovery in conversation catalog mode on every request of the agent (runtime.AgentRegistration.ConversationCatalog): fixed declarations, discovered tools in catalog messages. Native discovery is not affected."),
		jen.Id("ConversationCatalog").Bool(),
		doc("DiscoveryLimit caps the tools a discovery query returns; 0 means runtime.DefaultDiscoveryLimit."),
		jen.Id("DiscoveryLimit").Int(),
		doc("Caps bound every run of the agent; zero fields take runtime.DefaultCaps."),
		jen.Id("Caps").Qual(runtimePkg, "Caps"),
		doc("Policy applies to every run of the agent, on top of each run's own."),
		jen.Id("Policy").Qual(runtimePkg, "Policy"),
		doc("Options configure the registration further, e.g. runtime.WithRegistryTools."),
		jen.Id("Options").Index().Qual(runtimePkg, "AgentOption"),
	)
}

// registerAgentFunc emits Register<Agent>Agent.
func registerAgentFunc(a *agentIR) jen.Code {
	name := "Register" + a.goName + "Agent"
	reg := jen.Id("reg")
	return jen.Add(docf("%s registers the agent with rt: its Definition with the planner and settings of cfg.", name)).Line().
		Func().Id(name).Params(
		jen.Id("ctx").Qual(contextPkg, "Context"),
		jen.Id("rt").Op("*").Qual(runtimePkg, "Runtime"),
		jen.Id("cfg").Id(a.goName+"AgentConfig"),
	).Error().Block(
		jen.If(jen.Id("cfg").Dot("Planner").Op("==").Nil()).Block(
			jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("register agent %q: %w: no planner"), jen.Id("Name"), jen.Qual(runtimePkg, "ErrInvalidRegistration"))),
		),
		reg.Clone().Op(":=").Id("Definition").Call(),
		reg.Clone().Dot("Planner").Op("=").Id("cfg").Dot("Planner"),
		reg.Clone().Dot("DiscoveryDescription").Op("=").Id("cfg").Dot("DiscoveryDescription"),
		reg.Clone().Dot("ConversationCatalog").Op("=").Id("cfg").Dot("ConversationCatalog"),
		reg.Clone().Dot("DiscoveryLimit").Op("=").Id("cfg").Dot("DiscoveryLimit"),
		reg.Clone().Dot("Caps").Op("=").Id("cfg").Dot("Caps"),
		reg.Clone().Dot("Policy").Op("=").Id("cfg").Dot("Policy"),
		jen.Return(jen.Id("rt").Dot("RegisterAgent").Call(jen.Id("ctx"), reg.Clone(), jen.Id("cfg").Dot("Options").Op("..."))),
	)
}

// agentSearchFile emits the search index of the deferred local tools, built
// from counts merged when the code was generated.
func agentSearchFile(a *agentIR, p string) (*genFile, error) {
	g := newFile(p, a.pkg)
	f := g.file
	counts, err := valueLit(reflect.ValueOf(a.searchCounts), false)
	if err != nil {
		return nil, err
	}
	f.Add(doc("searchIndex builds the index of the deferred tools once, without tokenizing."))
	f.Var().Id("searchIndex").Op("=").Qual(syncPkg, "OnceValues").Call(
		jen.Func().Params().Params(jen.Op("*").Qual(toolsearchPkg, "Index"), jen.Error()).Block(
			jen.Return(jen.Qual(toolsearchPkg, "NewIndex").Call(jen.Id("searchCounts").Call())),
		),
	)
	f.Add(doc("SearchIndex returns the search index of the agent's deferred local tools, each named by its Ident with its model-facing name as alias. It is built once and shared; it is immutable."))
	f.Func().Id("SearchIndex").Params().Params(jen.Op("*").Qual(toolsearchPkg, "Index"), jen.Error()).Block(
		jen.Return(jen.Id("searchIndex").Call()),
	)
	f.Add(doc("mustSearchIndex returns SearchIndex. Generation built the same index from the same counts, so an error is a bug in toolsearch."))
	f.Func().Id("mustSearchIndex").Params().Op("*").Qual(toolsearchPkg, "Index").Block(
		jen.List(jen.Id("ix"), jen.Err()).Op(":=").Id("searchIndex").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Qual(fmtPkg, "Sprintf").Call(jen.Lit("agent %q: search index: %v"), jen.Id("Name"), jen.Err())),
		),
		jen.Return(jen.Id("ix")),
	)
	f.Add(doc("searchCounts returns the merged search counts of the deferred tools, in DeferredTools order."))
	f.Func().Id("searchCounts").Params().Qual(toolsearchPkg, "CatalogCounts").Block(jen.Return(counts))
	return g, nil
}
