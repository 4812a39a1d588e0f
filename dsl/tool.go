package dsl

import (
	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
)

// Tool declares a tool in the current Toolset, or in the toolset of the
// current Export. The name is what the model sees; the description tells it
// what the tool does. The optional DSL declares Args, Return, Tags, and Goa's
// Title and Meta. In a Goa Method of a service that declares MCPServer, Tool
// (without DSL) marks the method as an MCP tool whose Args and Return are
// the method's Payload and Result.
//
//	Tool("search", "Search records by keywords", func() {
//	    Args(func() { Attribute("query", String); Required("query") })
//	    Return(ArrayOf(Record))
//	})
func Tool(name, description string, fn ...func()) {
	at := expr.DesignLocation()
	body := bodyOf("Tool", fn)
	var ts *expr.ToolsetExpr
	switch e := eval.Current().(type) {
	case *goaexpr.MethodExpr:
		methodTool(e, name, description, fn, at)
		return
	case *expr.ToolsetExpr:
		ts = e
	case *expr.ExportExpr:
		if e.Toolset == nil {
			misuse("Tool %q cannot be declared in an Export of a registry", name)
			return
		}
		ts = e.Toolset
	default:
		misuse("Tool %q must be declared in a Toolset, an Export or a Method", name)
		return
	}
	tool := &expr.ToolExpr{Name: name, Description: description, Toolset: ts, At: at}
	ts.Tools = append(ts.Tools, tool)
	eval.Execute(body, tool)
}

// Args describes the arguments of the current tool, the way Goa's Payload
// does: a Goa user type, optionally followed by a description and a DSL
// function that refines it, or a DSL function that declares the attributes
// inline. A model sends arguments as a JSON object, so validation rejects
// Args that is not an object (a primitive, an array, a map); a tool without
// Args takes none.
//
//	Args(LookupArgs)
//	Args(func() { Attribute("id", String); Required("id") })
func Args(val any, args ...any) {
	setToolType("Args", val, args, func(t *expr.ToolExpr) (**goaexpr.AttributeExpr, *expr.Location) { return &t.Args, &t.ArgsAt })
}

// Return describes the result of the current tool; it accepts the same forms
// as Args, and any type: a primitive, an array or a map too.
//
//	Return(ArrayOf(Record))
//	Return(String, "A summary of the findings")
func Return(val any, args ...any) {
	setToolType("Return", val, args, func(t *expr.ToolExpr) (**goaexpr.AttributeExpr, *expr.Location) { return &t.Return, &t.ReturnAt })
}

// setToolType builds the attribute of Args or Return and stores it, and
// where it was declared, in the fields of the current tool that field
// selects.
func setToolType(word string, val any, args []any, field func(*expr.ToolExpr) (**goaexpr.AttributeExpr, *expr.Location)) {
	at := expr.DesignLocation()
	tool, ok := eval.Current().(*expr.ToolExpr)
	if !ok {
		misuse("%s must appear in a Tool", word)
		return
	}
	dst, dstAt := field(tool)
	if *dst != nil {
		misuse("%s is already set for tool %q", word, tool.Name)
		return
	}
	att, ok := toolAttribute(word, val, args)
	if ok {
		*dst, *dstAt = att, at
	}
}

// toolAttribute mirrors Goa's Payload and Result arguments: (type), (func),
// (type, desc), (type, func) and (type, desc, func). A user type refined by a
// function is duplicated so that the shared type stays unchanged.
func toolAttribute(word string, val any, args []any) (*goaexpr.AttributeExpr, bool) {
	const forms = "(type), (func), (type, description), (type, func) or (type, description, func)"
	var (
		desc string
		fn   func()
	)
	switch {
	case len(args) > 2:
		misuse("%s accepts %s, got %d arguments", word, forms, len(args)+1)
		return nil, false
	case len(args) == 2:
		d, dok := args[0].(string)
		f, fok := args[1].(func())
		if !dok || !fok {
			misuse("%s accepts %s", word, forms)
			return nil, false
		}
		desc, fn = d, f
	case len(args) == 1:
		switch a := args[0].(type) {
		case string:
			desc = a
		case func():
			fn = a
		default:
			misuse("%s cannot use %s after the type: accepted forms are %s", word, describe(a), forms)
			return nil, false
		}
	}
	var att *goaexpr.AttributeExpr
	switch v := val.(type) {
	case func():
		if len(args) > 0 {
			misuse("%s with a DSL function accepts no other argument", word)
			return nil, false
		}
		att = &goaexpr.AttributeExpr{Type: &goaexpr.Object{}}
		fn = v
	case goaexpr.UserType:
		if fn != nil {
			att = &goaexpr.AttributeExpr{Type: goaexpr.Dup(v)}
		} else {
			att = &goaexpr.AttributeExpr{Type: v}
		}
	case goaexpr.DataType:
		att = &goaexpr.AttributeExpr{Type: v}
	default:
		misuse("%s cannot use %s: give a Goa type or a DSL function", word, describe(val))
		return nil, false
	}
	att.Description = desc
	if fn != nil {
		eval.Execute(fn, att)
		if obj, ok := att.Type.(*goaexpr.Object); ok && len(*obj) == 0 {
			att.Type = goaexpr.Empty
		}
	}
	return att, true
}
