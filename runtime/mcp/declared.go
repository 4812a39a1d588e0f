package mcp

// Declared toolsets: tools of an MCP server whose schemas the design
// declares. At registration the server's list is checked against the
// declaration, and the toolset is registered with the runtime like a local
// one, its executor calling the server. The runtime validates every call's
// arguments with the declared payload codec before the executor sends it;
// the executor validates structuredContent with the declared result codec.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// DeclaredToolset is a toolset of an MCP server as the design declares
// it: the generated toolset package's Toolset() and Specs(). Each tool's
// name is "<toolset>.<ToolName(mcp name)>".
type DeclaredToolset struct {
	// Schema is the toolset's wire record.
	Schema tools.ToolsetSchema
	// Specs are the tools' specs with their codecs; nil compiles them from
	// Schema with contract.Compile.
	Specs []tools.ToolSpec
}

// Check reads the server's tool list and compares it with the declared
// tools: a declared tool the server does not list, or whose inputSchema or
// outputSchema differs from the declared payload or result, is a
// *MismatchError naming the tool and the first difference. Schemas are
// compared in their canonical form as JSON Schemas: annotations
// (descriptions, titles, examples, defaults) are not compared, since the
// declared ones are what the model reads; $schema draft-07 or 2020-12,
// keyword order, the spelling of types, required and enum, keywords at
// their default, and whether a subschema is stated in place or once under
// $defs and referred to with $ref do not count; every constraint does. A
// declared inputSchema may be narrower than the server's (calls are
// validated against the declared schema before they are sent: narrower.go
// and adoptStricter); a declared outputSchema must accept everything the
// server's does, except that a property the server may send as null may
// be declared optional (the executor reads the null as absent). Tools the
// server lists beyond the declared ones are ignored (mcp diff lists them). It returns the
// server's catalog under the declared toolset's name.
func (s *Session) Check(ctx context.Context, declared tools.ToolsetSchema) (*Catalog, error) {
	cat, err := s.ListCatalog(ctx, declared.Name)
	if err != nil {
		return nil, err
	}
	served := make(map[tools.Ident]*tools.ToolSchema, len(cat.Toolset.Tools))
	for i := range cat.Toolset.Tools {
		served[cat.Toolset.Tools[i].Name] = &cat.Toolset.Tools[i]
	}
	for _, d := range declared.Tools {
		got := served[d.Name]
		if got == nil {
			return nil, cat.missing(s.server, d.Name)
		}
		for _, part := range []struct {
			name           string
			declared, have json.RawMessage
		}{{"inputSchema", d.Payload, got.Payload}, {"outputSchema", d.Result, got.Result}} {
			if err := s.compare(d.Name, part.name, part.declared, part.have, part.name == "inputSchema"); err != nil {
				return nil, err
			}
		}
	}
	return cat, nil
}

// compare reports the first difference of one declared schema and the
// server's, in their canonical forms (schemaDifference).
func (s *Session) compare(id tools.Ident, which string, declared, served json.RawMessage, input bool) error {
	var first error
	err := s.mismatches(id, which, declared, served, input, func(m *MismatchError) bool {
		first = m
		return false
	})
	if err != nil {
		return err
	}
	return first
}

// mismatches calls emit with each difference of one declared schema and
// the server's, the first one first, until emit returns false.
func (s *Session) mismatches(id tools.Ident, which string, declared, served json.RawMessage, input bool, emit func(*MismatchError) bool) error {
	switch {
	case len(declared) == 0 && len(served) == 0:
		return nil
	case len(declared) == 0:
		emit(&MismatchError{Server: s.server, Tool: id, Schema: which, Declared: "absent", Served: render(json.RawMessage(served))})
		return nil
	case len(served) == 0:
		emit(&MismatchError{Server: s.server, Tool: id, Schema: which, Declared: render(json.RawMessage(declared)), Served: "absent"})
		return nil
	}
	for _, side := range []struct {
		raw      json.RawMessage
		declared bool
	}{{declared, true}, {served, false}} {
		if err := s.checkExpansion(id.Tool(), which, side.raw, side.declared); err != nil {
			return err
		}
	}
	all, err := schemaDifferences(declared, served, input)
	if err != nil {
		return fmt.Errorf("mcp server %q: declared tool %q: %s: %w", s.server, id, which, err)
	}
	for _, d := range all {
		if !emit(&MismatchError{Server: s.server, Tool: id, Schema: which, Pointer: d.pointer, Declared: d.left, Served: d.right}) {
			return nil
		}
	}
	return nil
}

// Differences compares a declared toolset with the server's list as Check
// does and returns every difference, where Check stops at the first: each
// declared tool the server does not list, and each difference of a
// declared schema, in declaration order, then inputSchema before
// outputSchema, then pointer order. It returns none when Check would
// accept the declaration. An error is a failure to read or compare the
// list, never a difference.
func (s *Session) Differences(ctx context.Context, declared tools.ToolsetSchema) ([]*MismatchError, error) {
	cat, err := s.ListCatalog(ctx, declared.Name)
	if err != nil {
		return nil, err
	}
	served := make(map[tools.Ident]*tools.ToolSchema, len(cat.Toolset.Tools))
	for i := range cat.Toolset.Tools {
		served[cat.Toolset.Tools[i].Name] = &cat.Toolset.Tools[i]
	}
	var all []*MismatchError
	collect := func(m *MismatchError) bool {
		all = append(all, m)
		return true
	}
	for _, d := range declared.Tools {
		got := served[d.Name]
		if got == nil {
			all = append(all, cat.missing(s.server, d.Name))
			continue
		}
		if err := s.mismatches(d.Name, "inputSchema", d.Payload, got.Payload, true, collect); err != nil {
			return nil, err
		}
		if err := s.mismatches(d.Name, "outputSchema", d.Result, got.Result, false, collect); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// RegisterToolset checks a declared toolset against the server (see
// Check) and registers it with rt under its name, with an executor that
// calls the server's tools under their MCP names. Calls of its tools are
// recorded with runtime.SourceMCP and the server's name.
func RegisterToolset(ctx context.Context, rt *runtime.Runtime, s *Session, d DeclaredToolset) error {
	cat, err := s.Check(ctx, d.Schema)
	if err != nil {
		return err
	}
	specs := d.Specs
	if specs == nil {
		specs = make([]tools.ToolSpec, len(d.Schema.Tools))
		for i := range d.Schema.Tools {
			spec, err := contract.Compile(&d.Schema.Tools[i])
			if err != nil {
				return fmt.Errorf("mcp server %q: %w", s.server, err)
			}
			specs[i] = *spec
		}
	}
	byIdent := make(map[tools.Ident]*tools.ToolSpec, len(specs))
	for i := range specs {
		byIdent[specs[i].Name] = &specs[i]
	}
	results := make(map[tools.Ident]any, len(d.Schema.Tools))
	for _, t := range d.Schema.Tools {
		if len(t.Result) == 0 {
			continue
		}
		c, err := tools.Canonicalize(t.Result)
		if err == nil {
			var v any
			if v, err = decodeNumbers(c); err == nil {
				results[t.Name] = canonicalSchema(v)
			}
		}
		if err != nil {
			return fmt.Errorf("mcp server %q: declared tool %q: outputSchema: %w", s.server, t.Name, err)
		}
	}
	return rt.RegisterToolset(runtime.ToolsetRegistration{
		Schema:    d.Schema,
		Specs:     specs,
		Executor:  &declaredExecutor{session: s, catalog: cat, specs: byIdent, results: results},
		MCPServer: s.server,
	})
}

// declaredExecutor runs the calls of a declared toolset.
type declaredExecutor struct {
	session *Session
	catalog *Catalog
	specs   map[tools.Ident]*tools.ToolSpec
	// results are the declared result schemas in canonical form.
	results map[tools.Ident]any
}

// Execute sends an admitted call, whose arguments the runtime validated,
// and returns its result: the structuredContent decoded by the declared
// result codec for a tool with a result schema, the content's text
// otherwise.
func (e *declaredExecutor) Execute(ctx context.Context, call *runtime.ToolInvocation) (any, error) {
	name, ok := e.catalog.MCPName(call.Tool)
	spec := e.specs[call.Tool]
	if !ok || spec == nil {
		return nil, &CallError{Server: e.session.server, Tool: call.Tool.Tool(), Kind: CallInvalid, Detail: "the toolset has no such tool"}
	}
	res, err := e.session.Call(ctx, name, call.Arguments)
	if err != nil {
		return nil, err
	}
	if spec.Result == nil {
		return content(res)
	}
	raw, err := structured(res)
	if err == nil && raw != nil {
		raw, err = e.nullsAbsent(call.Tool, raw)
	}
	if err == nil && raw == nil {
		err = fmt.Errorf("the tool declares a result schema and the server sent no structuredContent")
	}
	if err == nil {
		var v any
		if v, err = spec.Result.Decode(raw); err == nil {
			return v, nil
		}
		err = fmt.Errorf("structuredContent does not match the declared result schema: %w", err)
	}
	return nil, &CallError{Server: e.session.server, Tool: name, Kind: CallInvalid, Detail: err.Error(), Cause: err}
}

// nullsAbsent removes the null members of a result at the optional
// properties of the declared result schema (withoutNulls).
func (e *declaredExecutor) nullsAbsent(id tools.Ident, raw json.RawMessage) (json.RawMessage, error) {
	schema, ok := e.results[id]
	if !ok || !bytes.Contains(raw, []byte("null")) {
		return raw, nil
	}
	v, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	return json.Marshal(withoutNulls(v, schema))
}

// missing is the *MismatchError of a declared tool the catalog lacks,
// with the refusal of the server's tool of that name when it was left out.
func (c *Catalog) missing(server string, id tools.Ident) *MismatchError {
	m := &MismatchError{Server: server, Tool: id, Missing: true}
	for _, r := range c.Refused {
		if ToolName(r.Tool) == id.Tool() {
			m.Refused = r.Err.Error()
		}
	}
	return m
}
