package expr

// This file holds the MCP side of a design. A toolset comes from an MCP
// server in one of three ways:
//
//   - FromExternalMCP with tools: an external server whose tools the design
//     declares (Args, Return). It is a local toolset in every rule: its
//     tools are checked, named and deferred by name like any other.
//   - FromExternalMCP without tools: a dynamic source whose tools are
//     whatever the server lists at run time. Like a registry source it
//     accepts only Deferred() or immediate use, and the runtime registers it
//     under the server's name, next to the registries.
//   - FromMCP: a Goa service of the same design that declares itself an MCP
//     server (MCPServer) and marks methods as tools (Tool in a Method). The
//     toolset's tools are those methods, their Goa payload and result types
//     being the schemas; Prepare builds them, so that every rule of a local
//     toolset then applies to them.

import (
	"fmt"
	"slices"

	goaexpr "goa.design/goa/v3/expr"
)

// MCPSource is a toolset served by an MCP server, as FromExternalMCP and
// FromMCP return it. It is a value, not an expression: a Toolset declares
// the local toolset of it.
type MCPSource struct {
	// Server is the name the application registers the server's session
	// under: the name given to FromExternalMCP, or the Goa service name
	// given to FromMCP.
	Server string
	// Service is the Goa service name given to FromMCP; "" for
	// FromExternalMCP.
	Service string
	// Toolset is the toolset name.
	Toolset string
	// At is where FromExternalMCP or FromMCP was called.
	At Location

	// server is the MCP server of Service, resolved by Prepare; nil for
	// FromExternalMCP and for an unknown service.
	server *MCPServerExpr
}

// IsGoa reports whether the source is a Goa service of the design (FromMCP).
func (s *MCPSource) IsGoa() bool { return s.Service != "" }

// GoaServer returns the MCP server of the Goa service of a FromMCP source
// after Prepare; nil for FromExternalMCP.
func (s *MCPSource) GoaServer() *MCPServerExpr { return s.server }

// MCPServerExpr is the MCP server a Goa service declares with MCPServer: the
// methods it marks with Tool are served as MCP tools.
type MCPServerExpr struct {
	// Service is the Goa service that declares the server.
	Service *goaexpr.ServiceExpr
	// Name is the server name sent in the MCP handshake.
	Name string
	// Version is the server version sent in the MCP handshake.
	Version string
	// Tools are the service's methods marked with Tool, in declaration
	// order. Set by Prepare.
	Tools []*MCPToolExpr
	// At is where MCPServer was called.
	At Location

	// repeats are the MCPServer calls after the first in the same service.
	repeats []Location
	// toolset is the FromMCP toolset that serves the server's tools; set by
	// Prepare.
	toolset *ToolsetExpr
}

// MCPToolExpr is a Goa method marked as an MCP tool with Tool.
type MCPToolExpr struct {
	// Method is the Goa method the tool calls.
	Method *goaexpr.MethodExpr
	// Name is the tool name.
	Name string
	// Description tells the model what the tool does.
	Description string
	// At is where Tool was called.
	At Location
}

// EvalName returns the server and service names for error messages.
func (s *MCPServerExpr) EvalName() string {
	return fmt.Sprintf("MCP server %q of service %q", s.Name, s.Service.Name)
}

// EvalName returns the tool and method names for error messages.
func (t *MCPToolExpr) EvalName() string {
	return fmt.Sprintf("MCP tool %q of method %q of service %q", t.Name, t.Method.Name, t.Method.Service.Name)
}

// Toolset returns the FromMCP toolset that serves the server's tools after
// Prepare, nil when none does.
func (s *MCPServerExpr) Toolset() *ToolsetExpr { return s.toolset }

// AddMCPServer records an MCPServer call of svc: the first one declares the
// server, later ones are kept for rejection.
func (r *RootExpr) AddMCPServer(svc *goaexpr.ServiceExpr, name, version string, at Location) {
	if s := r.MCPServer(svc.Name); s != nil {
		s.repeats = append(s.repeats, at)
		return
	}
	r.MCPServers = append(r.MCPServers, &MCPServerExpr{Service: svc, Name: name, Version: version, At: at})
}

// MCPServer returns the MCP server of the Goa service named service, nil
// when it declares none.
func (r *RootExpr) MCPServer(service string) *MCPServerExpr {
	for _, s := range r.MCPServers {
		if s.Service.Name == service {
			return s
		}
	}
	return nil
}

// IsMCP reports whether the toolset's tools are served by an MCP server.
func (t *ToolsetExpr) IsMCP() bool { return t.MCP != nil }

// IsDynamic reports whether the toolset's tools are only known at run time:
// a registry toolset, or an external MCP toolset that declares no tools.
func (t *ToolsetExpr) IsDynamic() bool {
	return t.Source != nil || t.MCP != nil && !t.MCP.IsGoa() && len(t.Tools) == 0
}

// prepareMCP attaches the method tools to their services' servers and
// builds the tools of every FromMCP toolset from its server's methods.
// Tools a FromMCP toolset declares inline are kept aside for rejection.
func (r *RootExpr) prepareMCP() {
	for _, s := range r.MCPServers {
		s.Tools = nil
	}
	r.orphanMCPTools = nil
	marked := map[*goaexpr.MethodExpr]bool{}
	for _, mt := range r.MCPTools {
		if marked[mt.Method] {
			continue // a second Tool of one method, rejected on its own
		}
		marked[mt.Method] = true
		if s := r.MCPServer(mt.Method.Service.Name); s != nil {
			s.Tools = append(s.Tools, mt)
			continue
		}
		r.orphanMCPTools = append(r.orphanMCPTools, mt)
	}
	for _, ts := range r.Toolsets {
		if ts.MCP == nil || !ts.MCP.IsGoa() {
			continue
		}
		ts.inlineTools = append(ts.inlineTools, ts.Tools...)
		ts.Tools = nil
		s := r.MCPServer(ts.MCP.Service)
		ts.MCP.server = s
		if s == nil {
			continue
		}
		if s.toolset == nil {
			s.toolset = ts
		}
		if s.toolset != ts {
			continue // a second toolset of the server, rejected on its own
		}
		if ts.Description == "" {
			ts.Description = s.Service.Description
		}
		for _, mt := range s.Tools {
			// Copies: Goa's service generator replaces an inline object
			// payload or result with a named type, which must not rename
			// the tool's types.
			ts.Tools = append(ts.Tools, &ToolExpr{
				Name: mt.Name, Description: mt.Description,
				Args: dupAtt(mt.Method.Payload), Return: dupAtt(mt.Method.Result),
				Method: mt.Method, Toolset: ts, At: mt.At,
			})
		}
	}
}

// validateMCP checks the MCP servers of Goa services and the method tools:
// one MCPServer per service, Tool only in a service that declares one, one
// Tool per method, and every server served by exactly one FromMCP toolset.
func (r *RootExpr) validateMCP(p *problems) {
	for _, mt := range r.orphanMCPTools {
		p.add(mt, mt.At, "service %q declares no MCP server: add MCPServer(name, version) to its DSL", mt.Method.Service.Name)
	}
	marked := map[*goaexpr.MethodExpr]*MCPToolExpr{}
	for _, mt := range r.MCPTools {
		if first, dup := marked[mt.Method]; dup {
			p.add(mt, mt.At, "method %q is already the MCP tool %q (at %s): a method is one tool", mt.Method.Name, first.Name, first.At)
			continue
		}
		marked[mt.Method] = mt
	}
	for _, s := range r.MCPServers {
		for _, at := range s.repeats {
			p.add(s, at, "MCPServer repeats the MCP server of service %q (first declared at %s)", s.Service.Name, s.At)
		}
		if s.Name == "" {
			p.add(s, s.At, "empty MCP server name")
		}
		if s.Version == "" {
			p.add(s, s.At, "empty MCP server version")
		}
		if len(s.Tools) == 0 {
			p.add(s, s.At, "marks no method as a tool: declare Tool(name, description) in the DSL of the methods it serves")
		}
		if s.toolset == nil {
			p.add(s, s.At, "no toolset serves this MCP server: declare Toolset(FromMCP(%q, \"<toolset>\"))", s.Service.Name)
		}
	}
}

// validateMCPSourced checks the rules of a toolset served by an MCP server.
func (t *ToolsetExpr) validateMCPSourced(p *problems) {
	src := t.MCP
	if err := CheckName(src.Toolset); err != nil {
		p.add(t, src.At, "MCP toolset name: %v", err)
	}
	for _, v := range t.versions {
		p.add(t, v.at, "Version(%q) on an MCP toolset: Version only pins a toolset declared with FromRegistry", v.value)
	}
	for _, pub := range t.Publications {
		p.add(t, pub.At, "PublishTo on an MCP toolset: only a local toolset can be published")
	}
	for _, tool := range t.Tools {
		if tool.Return != nil && !goaexpr.IsObject(tool.Return.Type) {
			at := tool.ReturnAt
			if at.IsZero() {
				at = tool.At
			}
			p.add(tool, at, "the result of an MCP tool is an object (MCP's outputSchema and structuredContent are JSON objects), got %s; return an object, or declare no result for a tool that answers with text", tool.Return.Type.Name())
		}
	}
	if src.IsGoa() {
		t.validateGoaMCP(p)
		return
	}
	if err := CheckName(src.Server); err != nil {
		p.add(t, src.At, "MCP server name in FromExternalMCP: %v", err)
	}
	if !t.IsDynamic() {
		return
	}
	for _, tag := range t.Tags {
		p.add(t, tag.At, "Tags(%q) on a dynamic MCP toolset: its tools come from the server at run time; declare its tools to tag the toolset", tag.Value)
	}
	if !t.descriptionAt.IsZero() {
		p.add(t, t.descriptionAt, "Description on a dynamic MCP toolset: it is never sent; declare its tools to describe the toolset")
	}
	if !t.titleAt.IsZero() {
		p.add(t, t.titleAt, "Title on a dynamic MCP toolset: it is never sent; declare its tools to title the toolset")
	}
}

// validateGoaMCP checks a FromMCP toolset: its service exists and declares
// an MCP server that no other toolset serves, and it declares no tools of
// its own.
func (t *ToolsetExpr) validateGoaMCP(p *problems) {
	src := t.MCP
	for _, tool := range t.inlineTools {
		p.add(t, tool.At, "inline Tool %q on a FromMCP toolset: its tools are the methods of service %q marked with Tool", tool.Name, src.Service)
	}
	s := src.server
	if s == nil {
		if goaexpr.Root == nil || goaexpr.Root.Service(src.Service) == nil {
			p.add(t, src.At, "FromMCP: unknown service %q%s", src.Service, meantService(src.Service))
			return
		}
		p.add(t, src.At, "FromMCP: service %q declares no MCP server: add MCPServer(name, version) to its DSL", src.Service)
		return
	}
	if s.toolset != t {
		p.add(t, src.At, "FromMCP: the MCP server of service %q is already served by toolset %q (at %s)", src.Service, s.toolset.Name, s.toolset.At)
		return
	}
	for _, tool := range t.Tools {
		m := tool.Method
		if m.IsStreaming() {
			p.add(tool, tool.At, "method %q streams: an MCP tool call has one request and one result", m.Name)
		}
		for _, side := range []struct {
			word string
			att  *goaexpr.AttributeExpr
		}{{"payload", m.Payload}, {"result", m.Result}} {
			if side.att != nil && hasNestedObject(side.att.Type, map[string]bool{}) {
				p.add(tool, tool.At, "the %s of method %q holds an object declared inline in an attribute: declare it with Type, so that the MCP server converts it to Goa's named type", side.word, m.Name)
			}
		}
		if m.Result != nil {
			if _, ok := m.Result.Type.(*goaexpr.ResultTypeExpr); ok {
				p.add(tool, tool.At, "method %q returns result type %q, which Goa's endpoints return as a view: declare the result with Type", m.Name, m.Result.Type.Name())
			}
		}
	}
}

// meantService returns a did-you-mean suffix for an unknown Goa service
// name, "" when no service is close.
func meantService(name string) string {
	if goaexpr.Root == nil {
		return ""
	}
	names := make([]string, len(goaexpr.Root.Services))
	for i, svc := range goaexpr.Root.Services {
		names[i] = svc.Name
	}
	if meant := meantName(name, names); meant != "" {
		return fmt.Sprintf("; did you mean %q?", meant)
	}
	return ""
}

// validateMCPServerNames rejects two dynamic MCP toolsets of one server and
// a server named like a registry: the runtime registers both a registry and
// a dynamic server's source by name, one source per name.
func (r *RootExpr) validateMCPServerNames(p *problems) {
	dynamic := map[string]*ToolsetExpr{}
	for _, ts := range r.Toolsets {
		if ts.MCP == nil || !ts.IsDynamic() {
			continue
		}
		server := ts.MCP.Server
		if first, dup := dynamic[server]; dup {
			p.add(ts, ts.MCP.At, "MCP server %q already serves the dynamic toolset %q (at %s): the runtime registers one dynamic toolset per server", server, first.Name, first.MCP.At)
			continue
		}
		dynamic[server] = ts
		if i := slices.IndexFunc(r.Registries, func(reg *RegistryExpr) bool { return reg.Name == server }); i >= 0 {
			p.add(ts, ts.MCP.At, "MCP server %q is named like registry %q (at %s): the runtime registers both by name; rename one", server, server, r.Registries[i].At)
		}
	}
}

// dupAtt returns a copy of att, nil for nil and for Goa's Empty: a method
// without Payload or Result has Goa's Empty type there (set by Goa's
// Prepare), and its tool has no arguments or no result, not an argument
// object of that type.
func dupAtt(att *goaexpr.AttributeExpr) *goaexpr.AttributeExpr {
	if att == nil || att.Type == goaexpr.Empty {
		return nil
	}
	return goaexpr.DupAtt(att)
}

// hasNestedObject reports whether dt holds an object that is neither dt
// itself nor a user type: Goa's service types declare such an object as an
// anonymous struct, which no generated conversion can name.
func hasNestedObject(dt goaexpr.DataType, seen map[string]bool) bool {
	var walk func(att *goaexpr.AttributeExpr) bool
	walk = func(att *goaexpr.AttributeExpr) bool {
		switch t := att.Type.(type) {
		case goaexpr.UserType:
			return hasNestedObject(t, seen)
		case *goaexpr.Object:
			return true
		case *goaexpr.Array:
			return walk(t.ElemType)
		case *goaexpr.Map:
			return walk(t.KeyType) || walk(t.ElemType)
		}
		return false
	}
	if ut, ok := dt.(goaexpr.UserType); ok {
		if seen[ut.ID()] {
			return false
		}
		seen[ut.ID()] = true
		dt = ut.Attribute().Type
	}
	switch t := dt.(type) {
	case *goaexpr.Object:
		for _, nat := range *t {
			if walk(nat.Attribute) {
				return true
			}
		}
	case *goaexpr.Array:
		return walk(t.ElemType)
	case *goaexpr.Map:
		return walk(t.KeyType) || walk(t.ElemType)
	}
	return false
}

// validateMCPServers refuses an agent that uses a dynamic toolset and a
// declared toolset of one external MCP server: the dynamic one holds every
// tool the server lists, so the model would see each declared tool twice,
// under two names. It reports the later Use, pointing at the earlier.
func (a *AgentExpr) validateMCPServers(p *problems) {
	type kinds struct{ dynamic, declared *UseExpr }
	byServer := map[string]*kinds{}
	for _, u := range a.Uses {
		ts := u.Toolset
		if ts == nil || ts.MCP == nil || ts.MCP.IsGoa() {
			continue
		}
		k := byServer[ts.MCP.Server]
		if k == nil {
			k = &kinds{}
			byServer[ts.MCP.Server] = k
		}
		mine, other := &k.declared, k.dynamic
		if ts.IsDynamic() {
			mine, other = &k.dynamic, k.declared
		}
		if other != nil {
			dyn, decl := u, other
			if !ts.IsDynamic() {
				dyn, decl = other, u
			}
			p.add(u, u.At, "uses the dynamic MCP toolset %q and the declared MCP toolset %q (used at %s and %s) of one server %q: the dynamic toolset holds every tool the server lists, so the model would see each declared tool twice under two names; use one of them",
				dyn.Toolset.Name, decl.Toolset.Name, dyn.At, decl.At, ts.MCP.Server)
			continue
		}
		if *mine == nil {
			*mine = u
		}
	}
}
