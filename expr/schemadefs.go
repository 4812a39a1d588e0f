package expr

// This file decides where the user types of one schema document are
// written: in place when the document uses a type once, under "$defs" with
// a "$ref" from every place when it uses the type more than once, so that a
// shared type is stated once and every place refers to the same
// definition.

import (
	"fmt"
	"net/url"
	"strings"

	goaexpr "goa.design/goa/v3/expr"
)

// schemaBuilder builds one schema document.
type schemaBuilder struct {
	// visiting holds the user types being written, to reject recursion.
	visiting map[string]bool
	// uses counts the places of each user type in the document, a type
	// written under $defs counting the places of its definition once.
	uses map[string]int
	// defs are the definitions of the types used more than once, in the
	// order of first use.
	defs *schemaObject
}

// newSchemaBuilder returns the builder of the document of root.
func newSchemaBuilder(root *goaexpr.AttributeExpr) *schemaBuilder {
	b := &schemaBuilder{visiting: map[string]bool{}, uses: map[string]int{}, defs: newSchemaObject()}
	b.count(root)
	return b
}

// count counts the user types of att. A type's own attribute is walked at
// its first use only: the document states it once, in place or in $defs.
// A type that refers to itself is counted once more and then not walked
// again, which ends the walk; writing it reports the recursion.
func (b *schemaBuilder) count(att *goaexpr.AttributeExpr) {
	switch dt := att.Type.(type) {
	case *goaexpr.Array:
		b.count(dt.ElemType)
	case *goaexpr.Map:
		b.count(dt.ElemType)
	case *goaexpr.Object:
		for _, nat := range *dt {
			b.count(nat.Attribute)
		}
	case goaexpr.UserType:
		name := dt.Name()
		b.uses[name]++
		if b.uses[name] == 1 {
			b.count(dt.Attribute())
		}
	}
}

// userTypeBody returns the schema of a user type's own attribute.
func (b *schemaBuilder) userTypeBody(dt goaexpr.UserType) (*schemaObject, error) {
	name := dt.Name()
	b.visiting[name] = true
	defer delete(b.visiting, name)
	return b.schema(dt.Attribute(), fmt.Sprintf("type %q", name))
}

// ref returns the reference to the definition of dt, writing the
// definition at its first use.
func (b *schemaBuilder) ref(dt goaexpr.UserType) (*schemaObject, error) {
	name := dt.Name()
	if _, ok := b.defs.values[name]; !ok {
		b.defs.set(name, nil) // its place: the order of first use
		body, err := b.userTypeBody(dt)
		if err != nil {
			return nil, err
		}
		b.defs.set(name, body)
	}
	s := newSchemaObject()
	s.set("$ref", defRef(name))
	return s, nil
}

// document returns the document whose root schema is root: root's
// keywords, then the definitions.
func (b *schemaBuilder) document(root *schemaObject) *schemaObject {
	if len(b.defs.keys) > 0 {
		root.set("$defs", b.defs)
	}
	return root
}

// defRef returns the "$ref" of the definition named name in a document's
// "$defs": a JSON Pointer (RFC 6901) in a URI fragment (RFC 3986), so that
// "~" and "/" in a name are escaped as the pointer requires and characters
// a fragment cannot hold are percent-encoded.
func defRef(name string) string {
	token := strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
	return "#" + (&url.URL{Fragment: "/$defs/" + token}).EscapedFragment()
}
