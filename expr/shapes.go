package expr

// This file checks the shapes of tool arguments and results: what a tool
// schema (JSON Schema 2020-12) and a generated Go type can express. Code
// generation relies on these checks and does not repeat them, so a design
// shows its shape errors in the same run as every other error.

import (
	"fmt"

	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// schemaFormats maps the Goa formats that have a JSON Schema 2020-12
// counterpart to it. FormatIP has none of its own; SchemaFormat says how it
// is written.
var schemaFormats = map[goaexpr.ValidationFormat]string{
	goaexpr.FormatDate:     "date",
	goaexpr.FormatDateTime: "date-time",
	goaexpr.FormatUUID:     "uuid",
	goaexpr.FormatEmail:    "email",
	goaexpr.FormatHostname: "hostname",
	goaexpr.FormatIPv4:     "ipv4",
	goaexpr.FormatIPv6:     "ipv6",
	goaexpr.FormatURI:      "uri",
	goaexpr.FormatRegexp:   "regex",
}

// SchemaFormat returns the JSON Schema 2020-12 "format" of a Goa format and
// true, or "" and false when it has none. Validation accepts the formats it
// returns true for and FormatIP, which a schema states as either "ipv4" or
// "ipv6".
func SchemaFormat(f goaexpr.ValidationFormat) (string, bool) {
	s, ok := schemaFormats[f]
	return s, ok
}

// shapeCheck walks the attributes of one tool's Args or Return and reports
// every shape a tool schema cannot express at the tool.
type shapeCheck struct {
	p    *problems
	tool *ToolExpr
	// at is where the checked attribute was declared: the Args or Return
	// call, or the tool.
	at Location
	// visiting holds the user types on the walk's path, to detect a type
	// that refers to itself; walked holds those already checked for this
	// tool, so that a type used twice is reported once.
	visiting, walked map[string]bool
}

// validateShapes checks the tool's Args and Return: Args is an object (a
// model sends tool arguments as a JSON object), and both hold no union,
// recursive type, map with keys other than strings and integers, format
// without a JSON Schema counterpart, default of an Any attribute, default
// that its attribute's own schema rejects, or two attributes of one object
// with one Go field name.
// (Goa's own Required refuses a non-object while the design runs.)
func (t *ToolExpr) validateShapes(p *problems) {
	for _, side := range t.types() {
		c := &shapeCheck{p: p, tool: t, at: side.at, visiting: map[string]bool{}, walked: map[string]bool{}}
		if side.word == "Args" && !goaexpr.IsObject(side.att.Type) {
			p.add(t, side.at, "Args must be an object (a model sends tool arguments as a JSON object), got %s; declare the value as an attribute of an object, or give a user type that is one", side.att.Type.Name())
		}
		c.walk(side.att, side.word)
	}
}

// fail reports a shape error of the attribute owner names.
func (c *shapeCheck) fail(owner, format string, args ...any) {
	c.p.add(c.tool, c.at, "%s: %s", owner, fmt.Sprintf(format, args...))
}

// walk checks att, described by owner ("Args attribute \"id\"", "type
// \"Record\" items"), and everything it contains.
func (c *shapeCheck) walk(att *goaexpr.AttributeExpr, owner string) {
	c.validations(att, owner)
	switch dt := att.Type.(type) {
	case goaexpr.Primitive:
	case *goaexpr.Array:
		c.walk(dt.ElemType, owner+" items")
	case *goaexpr.Map:
		if !isMapKey(dt.KeyType.Type) {
			c.fail(owner, "map keys must be strings or integers to be JSON object keys, got %s", dt.KeyType.Type.Name())
		}
		c.walk(dt.ElemType, owner+" values")
	case *goaexpr.Object:
		fields := make(map[string]string, len(*dt))
		for _, nat := range *dt {
			if clash := goFieldClash(fields, nat.Name); clash != "" {
				c.fail(owner, "%s", clash)
			}
			member := fmt.Sprintf("%s attribute %q", owner, nat.Name)
			if err := gonames.CheckJSONName(nat.Name); err != nil {
				c.fail(member, "%v; rename the attribute", err)
			}
			switch {
			case !att.IsRequired(nat.Name) && isAny(nat.Attribute.Type) && DefaultOf(nat.Attribute) != nil:
				c.fail(member, "a default of an Any attribute cannot be told apart from an explicit null once decoded; give the attribute a type")
			default:
				c.validateDefault(nat.Attribute, member)
			}
			c.walk(nat.Attribute, member)
		}
	case goaexpr.UserType:
		name := dt.Name()
		switch {
		case c.visiting[name]:
			c.fail(owner, "type %q refers to itself; recursive types have no self-contained tool schema", name)
			return
		case c.walked[name]:
			return
		}
		c.visiting[name], c.walked[name] = true, true
		defer delete(c.visiting, name)
		c.walk(dt.Attribute(), fmt.Sprintf("type %q", name))
	case *goaexpr.Union:
		c.fail(owner, "OneOf (union) types have no tool schema form yet")
	default:
		c.fail(owner, "type %s has no tool schema form", att.Type.Name())
	}
}

// validations checks the validations att states itself.
func (c *shapeCheck) validations(att *goaexpr.AttributeExpr, owner string) {
	v := att.Validation
	if v == nil {
		return
	}
	if _, ok := SchemaFormat(v.Format); v.Format != "" && !ok && v.Format != goaexpr.FormatIP {
		c.fail(owner, "Format(%q) has no JSON Schema 2020-12 counterpart; use Pattern instead", v.Format)
	}
}

// isMapKey reports whether dt, or the type a user type names, can key a
// JSON object: a string or an integer.
func isMapKey(dt goaexpr.DataType) bool {
	switch dt.Kind() {
	case goaexpr.StringKind, goaexpr.IntKind, goaexpr.Int32Kind, goaexpr.Int64Kind,
		goaexpr.UIntKind, goaexpr.UInt32Kind, goaexpr.UInt64Kind:
		return true
	case goaexpr.UserTypeKind, goaexpr.ResultTypeKind:
		return isMapKey(dt.(goaexpr.UserType).Attribute().Type)
	}
	return false
}

// isAny reports whether dt, or the type a user type names, is Any.
func isAny(dt goaexpr.DataType) bool {
	switch dt.Kind() {
	case goaexpr.AnyKind:
		return true
	case goaexpr.UserTypeKind, goaexpr.ResultTypeKind:
		return isAny(dt.(goaexpr.UserType).Attribute().Type)
	}
	return false
}
