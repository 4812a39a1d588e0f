package gonames

// This file names the declarations of a toolset package: the identifiers
// every toolset package declares, the constant of each tool, and the struct
// types of tool arguments and results with the method that sets their
// defaults. Code generation declares them with these functions, and design
// validation walks the same structs (Declarer) to reject two declarations
// that would get one name.

import (
	"fmt"
	"slices"

	goaexpr "goa.design/goa/v3/expr"
)

// Identifiers that the package of every MCP toolset declares, declared
// tools or not (the package of a dynamic MCP toolset declares only these),
// and that generated agents reference.
const (
	// ToolsetNameConst is the constant of the toolset's name in the runtime.
	ToolsetNameConst = "Name"
	// ServerConst is the constant of the name of the toolset's MCP server.
	ServerConst = "Server"
	// RegisterFunc is the function that binds the toolset to a runtime.
	RegisterFunc = "Register"
	// RegistryExecutorFunc is the function of a local toolset's package that
	// serves its Executor as a registry provider.
	RegistryExecutorFunc = "RegistryExecutor"
)

// toolsetIdentifiers are the exported identifiers the package of every
// local toolset declares.
var toolsetIdentifiers = []string{
	ToolsetNameConst, "Toolset", "ToolSchemas", "Specs", "Spec", "SchemaFingerprint",
	"SearchCounts", "Executor", RegisterFunc, RegistryExecutorFunc,
}

// mcpToolsetIdentifiers are the exported identifiers the package of an MCP
// toolset declares as well.
var mcpToolsetIdentifiers = []string{ServerConst}

// ToolsetIdentifiers returns the exported identifiers a toolset package
// declares whatever its tools; mcp adds those of an MCP toolset's package.
// No tool or type of the package can take them.
func ToolsetIdentifiers(mcp bool) []string {
	ids := slices.Clone(toolsetIdentifiers)
	if mcp {
		ids = append(ids, mcpToolsetIdentifiers...)
	}
	return ids
}

// DefaultsMethod is the method (tools.Defaulter) of every generated struct
// type that holds a default at any depth; no field of such a type can take
// its name.
const DefaultsMethod = "SetDefaults"

// primitives maps Goa primitive kinds to the Go types of generated code.
var primitives = map[goaexpr.Kind]string{
	goaexpr.BooleanKind: "bool",
	goaexpr.IntKind:     "int",
	goaexpr.Int32Kind:   "int32",
	goaexpr.Int64Kind:   "int64",
	goaexpr.UIntKind:    "uint",
	goaexpr.UInt32Kind:  "uint32",
	goaexpr.UInt64Kind:  "uint64",
	goaexpr.Float32Kind: "float32",
	goaexpr.Float64Kind: "float64",
	goaexpr.StringKind:  "string",
}

// Primitive returns the Go type of a Goa primitive kind and true, or ""
// and false for Any and Bytes, which are no Go primitives (any, []byte).
func Primitive(k goaexpr.Kind) (string, bool) {
	t, ok := primitives[k]
	return t, ok
}

// Tool returns the identifier of the constant of tool name in its toolset
// package (and of its method in the package's Executor).
func Tool(name string) string { return Exported(name) }

// ArgsType returns the name of the struct of tool's Args when they are an
// inline object.
func ArgsType(tool string) string { return Exported(tool) + "Args" }

// ResultType returns the name of the struct of tool's Return when it is an
// inline object.
func ResultType(tool string) string { return Exported(tool) + "Result" }

// UserType returns the name of the type of a Goa user type; types nested
// in a user type that is not an object are named after it too.
func UserType(name string) string { return Exported(name) }

// ItemType returns the name of an inline object that is an element of the
// array of a value named of.
func ItemType(of string) string { return of + "Item" }

// KeyType returns the name of an inline object that is a key of the map of
// a value named of.
func KeyType(of string) string { return of + "Key" }

// ValueType returns the name of an inline object that is a value of the map
// of a value named of.
func ValueType(of string) string { return of + "Value" }

// MemberType returns the name of an inline object that is attribute member
// of the struct named of.
func MemberType(of, member string) string { return of + Exported(member) }

// Struct is a struct type a toolset package declares for an object: an
// inline object of tool arguments or results, or a user type that is one.
type Struct struct {
	// Name is the type's Go name.
	Name string
	// Owner says where the object is, for errors: "Args", `Args attribute
	// "filter"`, `type "Record"`.
	Owner string
	// Attribute is the object's attribute: the inline attribute, or the
	// user type's own.
	Attribute *goaexpr.AttributeExpr
}

// Declarer lists the structs one toolset package declares, in the order
// code generation declares them: a user type once per package, at its
// first use.
type Declarer struct {
	userTypes map[string]bool
}

// NewDeclarer returns the declarer of an empty package.
func NewDeclarer() *Declarer { return &Declarer{userTypes: map[string]bool{}} }

// Structs returns the structs that att declares in the package, in
// declaration order, when it is the Args or Return of a tool, or a value
// named name: name is the struct of att when it is an inline object; owner
// says where att is. User types walked by an earlier call are not repeated,
// so a type that refers to itself ends the walk. An attribute whose Go field
// repeats an earlier one's of its object (which validation rejects) is
// skipped.
func (d *Declarer) Structs(att *goaexpr.AttributeExpr, name, owner string) []Struct {
	var out []Struct
	d.walk(att, name, owner, &out)
	return out
}

// walk appends the structs of att to out.
func (d *Declarer) walk(att *goaexpr.AttributeExpr, name, owner string, out *[]Struct) {
	switch dt := att.Type.(type) {
	case *goaexpr.Array:
		d.walk(dt.ElemType, ItemType(name), owner+" items", out)
	case *goaexpr.Map:
		d.walk(dt.KeyType, KeyType(name), owner+" keys", out)
		d.walk(dt.ElemType, ValueType(name), owner+" values", out)
	case *goaexpr.Object:
		d.object(att, dt, name, owner, out)
	case goaexpr.UserType:
		un := dt.Name()
		if d.userTypes[un] {
			return
		}
		d.userTypes[un] = true
		owner := fmt.Sprintf("type %q", un)
		if obj, ok := dt.Attribute().Type.(*goaexpr.Object); ok {
			d.object(dt.Attribute(), obj, UserType(un), owner, out)
			return
		}
		d.walk(dt.Attribute(), UserType(un), owner, out)
	}
}

// object appends the struct of an object and the structs of its members.
func (d *Declarer) object(att *goaexpr.AttributeExpr, obj *goaexpr.Object, name, owner string, out *[]Struct) {
	*out = append(*out, Struct{Name: name, Owner: owner, Attribute: att})
	fields := make(map[string]bool, len(*obj))
	for _, nat := range *obj {
		field := Exported(nat.Name)
		if fields[field] {
			continue
		}
		fields[field] = true
		d.walk(nat.Attribute, MemberType(name, nat.Name), fmt.Sprintf("%s attribute %q", owner, nat.Name), out)
	}
}
