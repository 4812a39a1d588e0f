package mcpimport

// The design file: a Toolset of FromExternalMCP with one Tool per listed
// tool, the Goa types of its nested objects, and optionally a service with
// an agent that uses the toolset. It is written with jennifer, so it is
// gofmt'ed Go by construction, and its order is fixed: tools in the
// server's order, types in first-use order.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/format"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// The DSL packages the file dot-imports.
const (
	goaDSL = "goa.design/goa/v3/dsl"
	ourDSL = "github.com/goa-discovery/goa-discovery/dsl"
)

// Tool is one tool of a server's tools/list.
type Tool struct {
	// Name is the server's name of the tool.
	Name string
	// Title and Description are the tool's.
	Title, Description string
	// InputSchema and OutputSchema are its schemas; OutputSchema is empty
	// when the tool has none.
	InputSchema, OutputSchema json.RawMessage
}

// Options say what the file declares.
type Options struct {
	// Package is the Go package of the file; "" means "design".
	Package string
	// Server is the MCP server's name in the design (FromExternalMCP).
	Server string
	// Toolset is the toolset's name; "" means Server.
	Toolset string
	// Agent, when set, names a service and its agent that use the toolset.
	Agent string
	// Deferred makes the agent load every tool through discovery.
	Deferred bool
	// Any declares a property whose schema the DSL cannot declare Any.
	Any bool
	// Source says where the list was read, for the file's comment.
	Source string
	// Skip names tools of the server (their MCP names) not to import.
	Skip []string
	// Partial leaves out the tools whose schemas hold problems instead of
	// failing; with Skip, each left-out tool is listed in a comment block
	// of the file with its reasons.
	Partial bool
}

// Omitted is a tool of the server the file does not declare.
type Omitted struct {
	// Tool is the server's name of the tool.
	Tool string
	// Reasons say why: "--skip-tools", or its problems.
	Reasons []string
}

// Result is a written design file.
type Result struct {
	// File is the gofmt'ed Go source.
	File []byte
	// Notes are the annotations not written.
	Notes []Note
	// DeclaredAny are the properties declared Any (Options.Any).
	DeclaredAny []*AnyProperty
	// Omitted are the tools left out (Options.Skip and Options.Partial),
	// in the server's order.
	Omitted []Omitted
	// Names are the Go identifiers the file declares at package level.
	Names []string
}

// CheckOptions checks the names of o and fills in its defaults (Package
// "design", Toolset the server's name), before any server is reached.
func CheckOptions(o *Options) error {
	if o.Package == "" {
		o.Package = "design"
	}
	if o.Toolset == "" {
		o.Toolset = o.Server
	}
	for _, n := range []struct{ what, name string }{{"server", o.Server}, {"toolset", o.Toolset}} {
		if err := tools.ValidateName(n.name); err != nil {
			return fmt.Errorf("%s name: %w", n.what, err)
		}
	}
	if !token.IsIdentifier(o.Package) {
		return fmt.Errorf("package name %q is not a Go identifier", o.Package)
	}
	if o.Agent != "" {
		if err := tools.ValidateName(o.Agent); err != nil {
			return fmt.Errorf("agent name: %w", err)
		}
	} else if o.Deferred {
		return fmt.Errorf("deferred tools are a choice of an agent's Use: name the agent")
	}
	return nil
}

// Write returns the design file of the tools, or Errors listing every part
// of their schemas the DSL cannot declare.
func Write(list []Tool, o Options) (*Result, error) {
	if err := CheckOptions(&o); err != nil {
		return nil, err
	}
	w := &writer{types: map[string]*attr{}, declared: map[*attr]bool{}, prefix: gonames.Exported(o.Toolset)}
	res := &Result{}
	var problems Errors
	var toolCalls []jen.Code
	seen := map[string]string{}
	skip := map[string]bool{}
	for _, n := range o.Skip {
		skip[n] = true
	}
	for _, t := range list {
		delete(skip, t.Name)
	}
	if len(skip) > 0 {
		names := slices.Sorted(maps.Keys(skip))
		return nil, fmt.Errorf("--skip-tools names tools the server does not list: %s", strings.Join(names, ", "))
	}
	for _, n := range o.Skip {
		skip[n] = true
	}
	for _, t := range list {
		if skip[t.Name] {
			res.Omitted = append(res.Omitted, Omitted{Tool: t.Name, Reasons: []string{"--skip-tools"}})
			continue
		}
		name := mcp.ToolName(t.Name)
		if other, dup := seen[name]; dup {
			problems = append(problems, &Problem{Tool: t.Name, Schema: "name", Reason: fmt.Sprintf("tool %q of the server has the same tool name %q", other, name)})
			continue
		}
		seen[name] = t.Name
		if refused := refuseTool(t, o.Server); len(refused) > 0 {
			if o.Partial {
				om := Omitted{Tool: t.Name}
				for _, p := range refused {
					om.Reasons = append(om.Reasons, fmt.Sprintf("%s at %s: %s", p.Schema, pointerText(p.Pointer), p.Reason))
				}
				res.Omitted = append(res.Omitted, om)
			} else {
				problems = append(problems, refused...)
			}
			continue
		}
		call, d := w.tool(t, name, o.Any)
		if o.Partial && len(d.problems) > 0 {
			om := Omitted{Tool: t.Name}
			for _, p := range d.problems {
				om.Reasons = append(om.Reasons, fmt.Sprintf("%s at %s: %s", p.Schema, pointerText(p.Pointer), p.Reason))
			}
			res.Omitted = append(res.Omitted, om)
			continue
		}
		problems = append(problems, d.problems...)
		res.Notes = append(res.Notes, d.notes...)
		res.DeclaredAny = append(res.DeclaredAny, d.declaredAny...)
		if call != nil {
			toolCalls = append(toolCalls, call)
		}
	}
	problems = append(problems, w.clashes...)
	if len(problems) > 0 {
		return nil, problems
	}
	f := jen.NewFile(o.Package)
	f.ImportAlias(goaDSL, ".")
	f.ImportAlias(ourDSL, ".")
	f.PackageComment(fmt.Sprintf("Package %s declares the tools of MCP server %q, written by goa-discovery mcp import from its tools/list (%s). Check it against the server with goa-discovery mcp diff.", o.Package, o.Server, o.Source))
	tsVar := goIdent(gonames.Exported(o.Toolset), "Toolset")
	f.Commentf("%s is the toolset of the tools MCP server %q lists, with their schemas.", tsVar, o.Server)
	f.Var().Id(tsVar).Op("=").Qual(ourDSL, "Toolset").Call(
		jen.Qual(ourDSL, "FromExternalMCP").Call(jen.Lit(o.Server), jen.Lit(o.Toolset)),
		jen.Func().Params().Block(toolCalls...),
	)
	res.Names = append(res.Names, tsVar)
	if len(res.Omitted) > 0 {
		f.Line()
		f.Commentf("Tools of MCP server %q not declared here (mcp diff lists them as undeclared):", o.Server)
		for _, om := range res.Omitted {
			for i, r := range om.Reasons {
				if i == 0 {
					f.Commentf("  - %q: %s", om.Tool, oneLine(r))
				} else {
					f.Commentf("    %s", oneLine(r))
				}
			}
		}
	}
	for _, t := range w.order {
		res.Names = append(res.Names, goIdent(t.name, "Type"))
		f.Line()
		if t.goaName != "" {
			f.Commentf("%s is definition %q of a tool's schema ($defs).", goIdent(t.name, "Type"), t.goaName)
			f.Var().Id(goIdent(t.name, "Type")).Op("=").Qual(goaDSL, "Type").Call(jen.Lit(t.name), jen.Func().Params().Block(t.body...))
			continue
		}
		f.Commentf("%s is a nested object of a tool's schema.", goIdent(t.name, "Type"))
		f.Var().Id(goIdent(t.name, "Type")).Op("=").Qual(goaDSL, "Type").Call(jen.Lit(t.name), jen.Func().Params().Block(t.body...))
	}
	if o.Agent != "" {
		var use []jen.Code
		use = append(use, jen.Id(tsVar))
		if o.Deferred {
			use = append(use, jen.Func().Params().Block(jen.Qual(ourDSL, "Deferred").Call()))
		}
		f.Line()
		f.Var().Id("_").Op("=").Qual(goaDSL, "Service").Call(jen.Lit(o.Agent), jen.Func().Params().Block(
			jen.Qual(ourDSL, "Agent").Call(jen.Lit(o.Agent), jen.Lit(fmt.Sprintf("Use the tools of MCP server %q.", o.Server)), jen.Func().Params().Block(
				jen.Qual(ourDSL, "Use").Call(use...),
			)),
		))
	}
	src := fmt.Sprintf("%#v", f)
	out, err := format.Source([]byte(src))
	if err != nil {
		return nil, fmt.Errorf("format the design: %w", err)
	}
	res.File = out
	return res, nil
}

// oneLine writes s on one line, for a comment.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// goIdent returns name, or name+suffix when the DSL packages the file
// dot-imports export name (a toolset "files" would hide Goa's Files).
func goIdent(name, suffix string) string {
	if dslNames[name] {
		return name + suffix
	}
	return name
}

// namedType is a Goa type the file declares: name is its Go name, and its
// Goa name unless goaName, the name of a definition, is set.
type namedType struct {
	name, goaName string
	body          []jen.Code
}

// writer collects the types of the tools' nested objects and definitions.
type writer struct {
	// types are the declared types by Go name.
	types map[string]*attr
	// declared are the objects declared, each once.
	declared map[*attr]bool
	order    []namedType
	clashes  Errors
	// prefix starts the name of every type: the toolset's, so that the
	// types of two imports into one design package never collide.
	prefix string
}

// tool returns the Tool call of t, or nil with the decoder's problems.
func (w *writer) tool(t Tool, name string, anyOK bool) (jen.Code, *decoder) {
	d := &decoder{tool: t.Name, any: anyOK, prefix: w.prefix}
	var body []jen.Code
	if t.Title != "" {
		body = append(body, jen.Qual(goaDSL, "Title").Call(jen.Lit(t.Title)))
	}
	for _, side := range []struct {
		schema, word, typeName string
		raw                    json.RawMessage
	}{
		{"inputSchema", "Args", w.prefix + gonames.ArgsType(name), t.InputSchema},
		{"outputSchema", "Return", w.prefix + gonames.ResultType(name), t.OutputSchema},
	} {
		if len(side.raw) == 0 || string(side.raw) == "null" {
			if side.word == "Args" {
				d.schema = side.schema
				d.fail("", "the tool lists no inputSchema")
			}
			continue
		}
		d.schema, d.output = side.schema, side.word == "Return"
		m, err := parse(side.raw)
		if err != nil {
			d.fail("", err.Error())
			continue
		}
		before := len(d.problems)
		a := d.root(m, side.typeName)
		if a == nil || len(d.problems) > before {
			continue
		}
		if side.word == "Args" && len(a.props) == 0 && a.description == "" {
			continue // a tool without arguments
		}
		body = append(body, jen.Qual(ourDSL, side.word).Call(jen.Func().Params().Block(w.objectBody(a)...)))
	}
	if len(d.problems) > 0 {
		return nil, d
	}
	return jen.Qual(ourDSL, "Tool").Call(jen.Lit(name), jen.Lit(t.Description), jen.Func().Params().Block(body...)), d
}

// objectBody returns the DSL of an object: its description, attributes
// and required ones.
func (w *writer) objectBody(a *attr) []jen.Code {
	var out []jen.Code
	if a.description != "" {
		out = append(out, jen.Qual(goaDSL, "Description").Call(jen.Lit(a.description)))
	}
	for _, p := range a.props {
		out = append(out, w.attribute(p.name, p.att))
	}
	if len(a.required) > 0 {
		req := make([]jen.Code, len(a.required))
		for i, r := range a.required {
			req[i] = jen.Lit(r)
		}
		out = append(out, jen.Qual(goaDSL, "Required").Call(req...))
	}
	return out
}

// attribute returns Attribute(name, type, description, validations).
func (w *writer) attribute(name string, a *attr) jen.Code {
	args := []jen.Code{jen.Lit(name), w.typeOf(a)}
	if a.description != "" {
		args = append(args, jen.Lit(a.description))
	}
	if v := w.validations(a); len(v) > 0 {
		args = append(args, jen.Func().Params().Block(v...))
	}
	return jen.Qual(goaDSL, "Attribute").Call(args...)
}

// typeOf returns the DSL type of a, declaring the Goa type of a nested
// object.
func (w *writer) typeOf(a *attr) jen.Code {
	switch a.kind {
	case kindString:
		return jen.Qual(goaDSL, "String")
	case kindBytes:
		return jen.Qual(goaDSL, "Bytes")
	case kindInt:
		return jen.Qual(goaDSL, "Int")
	case kindNumber:
		return jen.Qual(goaDSL, "Float64")
	case kindBoolean:
		return jen.Qual(goaDSL, "Boolean")
	case kindArray:
		return jen.Qual(goaDSL, "ArrayOf").Call(w.elemArgs(a.elem)...)
	case kindMap:
		return jen.Qual(goaDSL, "MapOf").Call(append([]jen.Code{jen.Qual(goaDSL, "String")}, w.elemArgs(a.elem)...)...)
	case kindObject:
		w.declare(a)
		return jen.Id(goIdent(a.typeName, "Type"))
	}
	return jen.Qual(goaDSL, "Any")
}

// elemArgs returns the arguments of ArrayOf or MapOf for an element: its
// type and a DSL function with its description and validations.
func (w *writer) elemArgs(e *attr) []jen.Code {
	args := []jen.Code{w.typeOf(e)}
	var body []jen.Code
	if e.description != "" && e.kind != kindObject {
		body = append(body, jen.Qual(goaDSL, "Description").Call(jen.Lit(e.description)))
	}
	body = append(body, w.validations(e)...)
	if len(body) > 0 {
		args = append(args, jen.Func().Params().Block(body...))
	}
	return args
}

// declare declares the Goa type of a nested object or of the definition a
// reference uses, once. Definitions of one name and the same JSON in
// several schemas are one type.
func (w *writer) declare(a *attr) {
	if a.shared != nil {
		a = a.shared
	}
	if w.declared[a] {
		return
	}
	if other := w.types[a.typeName]; other != nil {
		switch {
		case a.goaName != "" && other.goaName == a.goaName && other.canonical == a.canonical:
			w.declared[a] = true
		case a.goaName != "" || other.goaName != "":
			w.clashes = append(w.clashes, &Problem{Schema: "types", Reason: fmt.Sprintf("two types would both be Go type %s: definition %q and %s", a.typeName, cmp.Or(a.goaName, other.goaName), otherType(a, other))})
		default:
			w.clashes = append(w.clashes, &Problem{Schema: "types", Reason: fmt.Sprintf("two nested objects are both named %s after their paths", a.typeName)})
		}
		return
	}
	w.types[a.typeName] = a
	w.declared[a] = true
	i := len(w.order)
	w.order = append(w.order, namedType{name: a.typeName, goaName: a.goaName})
	w.order[i].body = w.objectBody(a)
}

// otherType describes the second of two types of one Go name, one of them
// a definition.
func otherType(a, other *attr) string {
	if a.goaName != "" && other.goaName != "" {
		if a.goaName == other.goaName {
			return "a different definition of the same name in another schema"
		}
		return fmt.Sprintf("definition %q", other.goaName)
	}
	return "a nested object named after its path"
}

// validations returns the DSL calls of a's validations, default and
// examples.
func (w *writer) validations(a *attr) []jen.Code {
	var out []jen.Code
	call := func(fn string, args ...jen.Code) { out = append(out, jen.Qual(goaDSL, fn).Call(args...)) }
	if a.format != "" {
		call("Format", jen.Qual(goaDSL, a.format))
	}
	if a.pattern != "" {
		call("Pattern", jen.Lit(a.pattern))
	}
	if len(a.enum) > 0 {
		vals := make([]jen.Code, len(a.enum))
		for i, v := range a.enum {
			vals[i] = literal(a, v)
		}
		call("Enum", vals...)
	}
	for _, b := range []struct {
		fn string
		n  *json.Number
	}{{"Minimum", a.minimum}, {"ExclusiveMinimum", a.exMin}, {"Maximum", a.maximum}, {"ExclusiveMaximum", a.exMax}} {
		if b.n != nil {
			call(b.fn, number(a.kind == kindInt, *b.n))
		}
	}
	if a.minLength != nil {
		call("MinLength", jen.Lit(*a.minLength))
	}
	if a.maxLength != nil {
		call("MaxLength", jen.Lit(*a.maxLength))
	}
	if a.hasDefault {
		call("Default", literal(a, a.def))
	}
	for _, ex := range a.examples {
		call("Example", literal(a, ex))
	}
	return out
}

// literal returns the Go literal of a value of a (valueOf proved it one).
func literal(a *attr, v any) jen.Code {
	switch x := v.(type) {
	case json.Number:
		return number(a.kind == kindInt, x)
	case []any:
		vals := make([]jen.Code, len(x))
		for i, e := range x {
			vals[i] = literal(a.elem, e)
		}
		return jen.Index().Any().Values(vals...)
	}
	return jen.Lit(v)
}

// number returns the literal of a number: an int for an integer, a float64
// otherwise (Goa checks the kind of a default or an enum value).
func number(integer bool, n json.Number) jen.Code {
	if integer {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return jen.Lit(int(i))
		}
	}
	f, _ := n.Float64()
	return jen.Lit(f)
}
