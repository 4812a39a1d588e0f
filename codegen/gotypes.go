package codegen

// This file maps Goa attributes to the Go types of a toolset package: the
// argument and result structs of each tool and the user types they use,
// each declared once per package with the design's descriptions as doc
// comments.

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// goKind is the shape of a Go type.
type goKind int

const (
	kindPrimitive goKind = iota // bool, int, string, ...
	kindAny                     // any
	kindBytes                   // []byte
	kindStruct                  // a named struct, referenced through a pointer
	kindSlice
	kindMap
)

// goType is a Go type of a generated package.
type goType struct {
	kind goKind
	// prim is the primitive type name (kindPrimitive).
	prim string
	// named is the struct (kindStruct).
	named *namedType
	// key and elem are the map key and the slice or map element.
	key, elem *goType
}

// namedType is a struct type declared in a generated package.
type namedType struct {
	name   string
	doc    string
	fields []*structField
	// withDefaults is set when a field at any depth has a default, so the
	// type gets a SetDefaults method.
	withDefaults bool
}

// structField is a field of a namedType.
type structField struct {
	goName   string
	jsonName string
	typ      *goType
	required bool
	doc      string
	// deflt is the Go literal of the design's default of an optional
	// field, assignable to the field; nil when it has none.
	deflt jen.Code
	// defaultJSON is the JSON text of that default, for the field's doc.
	defaultJSON string
}

// typeCollector declares the named types of one package.
type typeCollector struct {
	// owners maps each exported identifier of the package to what declares
	// it, to report collisions.
	owners map[string]string
	// userTypes maps Goa user type names to their declaration.
	userTypes map[string]*namedType
	// visiting holds the user types being mapped, to reject recursion.
	visiting map[string]bool
	// types lists the declarations in first-use order.
	types []*namedType
}

func newTypeCollector() *typeCollector {
	return &typeCollector{owners: map[string]string{}, userTypes: map[string]*namedType{}, visiting: map[string]bool{}}
}

// claim reserves an exported identifier of the package for owner.
// Validation rejects every collision at the design line that causes it
// (expr's Go identifier check walks the same names, package gonames), so a
// collision here is a bug of one of the two.
func (c *typeCollector) claim(name, owner string) error {
	if first, dup := c.owners[name]; dup {
		return fmt.Errorf("bug: Go identifier %s of %s is already used by %s, which validation did not report", name, owner, first)
	}
	c.owners[name] = owner
	return nil
}

// typeOf returns the Go type of att. hint names the struct of an inline
// object; owner says where att is, for errors.
func (c *typeCollector) typeOf(att *goaexpr.AttributeExpr, hint, owner string) (*goType, error) {
	switch dt := att.Type.(type) {
	case goaexpr.Primitive:
		switch dt.Kind() {
		case goaexpr.AnyKind:
			return &goType{kind: kindAny}, nil
		case goaexpr.BytesKind:
			return &goType{kind: kindBytes}, nil
		}
		prim, _ := gonames.Primitive(dt.Kind())
		return &goType{kind: kindPrimitive, prim: prim}, nil
	case *goaexpr.Array:
		elem, err := c.typeOf(dt.ElemType, gonames.ItemType(hint), owner+" items")
		if err != nil {
			return nil, err
		}
		return &goType{kind: kindSlice, elem: elem}, nil
	case *goaexpr.Map:
		key, err := c.typeOf(dt.KeyType, gonames.KeyType(hint), owner+" keys")
		if err != nil {
			return nil, err
		}
		elem, err := c.typeOf(dt.ElemType, gonames.ValueType(hint), owner+" values")
		if err != nil {
			return nil, err
		}
		return &goType{kind: kindMap, key: key, elem: elem}, nil
	case *goaexpr.Object:
		nt, err := c.declare(hint, att.Description, dt, att, owner)
		if err != nil {
			return nil, err
		}
		return &goType{kind: kindStruct, named: nt}, nil
	case goaexpr.UserType:
		return c.userType(dt, owner)
	case *goaexpr.Union:
		return nil, fmt.Errorf("%s: OneOf (union) types have no tool schema form yet", owner)
	}
	return nil, fmt.Errorf("%s: unsupported type %s", owner, att.Type.Name())
}

// userType returns the Go type of a Goa user or result type: a struct named
// after it for an object, the underlying type otherwise.
func (c *typeCollector) userType(ut goaexpr.UserType, owner string) (*goType, error) {
	name := ut.Name()
	if nt, ok := c.userTypes[name]; ok {
		if c.visiting[name] {
			return nil, fmt.Errorf("%s: type %q refers to itself; recursive types have no self-contained tool schema", owner, name)
		}
		return &goType{kind: kindStruct, named: nt}, nil
	}
	att := ut.Attribute()
	obj, ok := att.Type.(*goaexpr.Object)
	if !ok {
		if c.visiting[name] {
			return nil, fmt.Errorf("%s: type %q refers to itself", owner, name)
		}
		c.visiting[name] = true
		defer delete(c.visiting, name)
		return c.typeOf(att, gonames.UserType(name), fmt.Sprintf("type %q", name))
	}
	nt := &namedType{name: gonames.UserType(name)}
	c.userTypes[name] = nt
	c.visiting[name] = true
	defer delete(c.visiting, name)
	if err := c.fill(nt, att.Description, obj, att, fmt.Sprintf("type %q", name)); err != nil {
		return nil, err
	}
	return &goType{kind: kindStruct, named: nt}, nil
}

// declare declares the struct of an inline object named name.
func (c *typeCollector) declare(name, doc string, obj *goaexpr.Object, att *goaexpr.AttributeExpr, owner string) (*namedType, error) {
	nt := &namedType{name: name}
	if err := c.fill(nt, doc, obj, att, owner); err != nil {
		return nil, err
	}
	return nt, nil
}

// fill claims nt's name, maps its fields and appends it to the package's
// declarations.
func (c *typeCollector) fill(nt *namedType, doc string, obj *goaexpr.Object, att *goaexpr.AttributeExpr, owner string) error {
	if err := c.claim(nt.name, owner); err != nil {
		return err
	}
	nt.doc = doc
	c.types = append(c.types, nt)
	for _, nat := range *obj {
		fieldName := goName(nat.Name) // validation proved the field names distinct
		typ, err := c.typeOf(nat.Attribute, gonames.MemberType(nt.name, nat.Name), fmt.Sprintf("%s attribute %q", owner, nat.Name))
		if err != nil {
			return err
		}
		f := &structField{
			goName:   fieldName,
			jsonName: nat.Name,
			typ:      typ,
			required: att.IsRequired(nat.Name),
			doc:      attributeDoc(nat.Attribute),
		}
		if !f.required {
			if err := f.setDefault(nat.Attribute, fmt.Sprintf("%s attribute %q", owner, nat.Name)); err != nil {
				return err
			}
		}
		nt.fields = append(nt.fields, f)
	}
	return nil
}

// attributeDoc returns the description of an attribute, or of its user type
// when the attribute has none.
func attributeDoc(att *goaexpr.AttributeExpr) string {
	if att.Description != "" {
		return att.Description
	}
	if ut, ok := att.Type.(goaexpr.UserType); ok {
		return ut.Attribute().Description
	}
	return ""
}
