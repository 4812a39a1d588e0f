package expr_test

import (
	"strings"
	"testing"

	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// object returns an object attribute of the named attributes, in order,
// requiring required.
func object(required []string, members ...*goaexpr.NamedAttributeExpr) *goaexpr.AttributeExpr {
	obj := goaexpr.Object(members)
	att := &goaexpr.AttributeExpr{Type: &obj}
	if len(required) > 0 {
		att.Validation = &goaexpr.ValidationExpr{Required: required}
	}
	return att
}

func member(name string, dt goaexpr.DataType) *goaexpr.NamedAttributeExpr {
	return &goaexpr.NamedAttributeExpr{Name: name, Attribute: &goaexpr.AttributeExpr{Type: dt}}
}

func userType(name string, att *goaexpr.AttributeExpr) *goaexpr.UserTypeExpr {
	return &goaexpr.UserTypeExpr{TypeName: name, AttributeExpr: att}
}

// TestJSONSchemaDefs covers where a schema writes its user types: in place
// when the document uses one once, under $defs with a $ref from each place
// when it uses one more than once, whatever the depth of the places.
func TestJSONSchemaDefs(t *testing.T) {
	address := userType("Address", object([]string{"city"}, member("street", goaexpr.String), member("city", goaexpr.String)))
	country := userType("Country", object(nil, member("code", goaexpr.String)))
	located := userType("Located", object(nil, member("country", country)))
	odd := userType("a/b~c d", object(nil, member("x", goaexpr.Int32)))
	cases := []struct {
		name string
		att  *goaexpr.AttributeExpr
		want string
	}{
		{"a type used once is written in place",
			object(nil, member("home", address)),
			`{"type":"object","properties":{"home":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["city"],"additionalProperties":false}},"additionalProperties":false}`},
		{"a type used twice is defined once",
			object(nil, member("home", address), member("others", &goaexpr.Array{ElemType: &goaexpr.AttributeExpr{Type: address}})),
			`{"type":"object","properties":{"home":{"$ref":"#/$defs/Address"},"others":{"type":"array","items":{"$ref":"#/$defs/Address"}}},"additionalProperties":false,` +
				`"$defs":{"Address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}}`},
		{"the root type is the document and a type used in it once stays in place",
			&goaexpr.AttributeExpr{Type: located},
			`{"type":"object","properties":{"country":{"type":"object","properties":{"code":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}`},
		{"a type used once in a defined type and once elsewhere is defined too, in the order of first use",
			object(nil, member("a", located), member("b", located), member("c", country)),
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/Located"},"b":{"$ref":"#/$defs/Located"},"c":{"$ref":"#/$defs/Country"}},"additionalProperties":false,` +
				`"$defs":{"Located":{"type":"object","properties":{"country":{"$ref":"#/$defs/Country"}},"additionalProperties":false},` +
				`"Country":{"type":"object","properties":{"code":{"type":"string"}},"additionalProperties":false}}}`},
		{"a type used twice inside a type used once is defined",
			object(nil, member("pair", userType("Pair", object(nil, member("from", country), member("to", country))))),
			`{"type":"object","properties":{"pair":{"type":"object","properties":{"from":{"$ref":"#/$defs/Country"},"to":{"$ref":"#/$defs/Country"}},"additionalProperties":false}},"additionalProperties":false,` +
				`"$defs":{"Country":{"type":"object","properties":{"code":{"type":"string"}},"additionalProperties":false}}}`},
		{"a map's values count",
			object(nil, member("by_region", &goaexpr.Map{KeyType: &goaexpr.AttributeExpr{Type: goaexpr.String}, ElemType: &goaexpr.AttributeExpr{Type: country}}), member("home", country)),
			`{"type":"object","properties":{"by_region":{"type":"object","additionalProperties":{"$ref":"#/$defs/Country"}},"home":{"$ref":"#/$defs/Country"}},"additionalProperties":false,` +
				`"$defs":{"Country":{"type":"object","properties":{"code":{"type":"string"}},"additionalProperties":false}}}`},
		{"a name is escaped as a JSON Pointer in a URI fragment",
			object(nil, member("a", odd), member("b", odd)),
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/a~1b~0c%20d"},"b":{"$ref":"#/$defs/a~1b~0c%20d"}},"additionalProperties":false,` +
				`"$defs":{"a/b~c d":{"type":"object","properties":{"x":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"additionalProperties":false}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := expr.JSONSchema(tc.att, "Args")
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("JSONSchema:\n got %s\nwant %s", got, tc.want)
			}
			// The validator resolves every $ref of the document.
			if _, err := tools.CompileSchema(got); err != nil {
				t.Errorf("the schema does not compile: %v", err)
			}
		})
	}
}

// TestJSONSchemaDefsValidate checks that a defined type constrains each
// place that refers to it.
func TestJSONSchemaDefsValidate(t *testing.T) {
	address := userType("Address", object([]string{"city"}, member("city", goaexpr.String)))
	att := object(nil, member("home", address), member("work", address))
	raw, err := expr.JSONSchema(att, "Args")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tools.CompileSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		doc   string
		valid bool
	}{
		{`{"home":{"city":"Lyon"},"work":{"city":"Paris"}}`, true},
		{`{"home":{"city":"Lyon"},"work":{}}`, false},
		{`{"home":{"city":"Lyon","zip":"69001"}}`, false},
		{`{"work":{"city":1}}`, false},
	} {
		err := s.Validate([]byte(tc.doc))
		if (err == nil) != tc.valid {
			t.Errorf("Validate(%s) = %v, want valid %v", tc.doc, err, tc.valid)
		}
	}
}

// TestJSONSchemaRecursion covers types that reach themselves, directly or
// through another type: they have no self-contained schema.
func TestJSONSchemaRecursion(t *testing.T) {
	node := userType("Node", nil)
	node.AttributeExpr = object(nil, member("children", &goaexpr.Array{ElemType: &goaexpr.AttributeExpr{Type: node}}))
	a := userType("A", nil)
	b := userType("B", object(nil, member("a", a)))
	a.AttributeExpr = object(nil, member("b", b))
	for _, tc := range []struct {
		name string
		att  *goaexpr.AttributeExpr
		want string
	}{
		{"the root type", &goaexpr.AttributeExpr{Type: node}, `type "Node" attribute "children" items: type "Node" refers to itself`},
		{"a nested type", object(nil, member("tree", node)), `type "Node" attribute "children" items: type "Node" refers to itself`},
		{"through another type", object(nil, member("a", a)), `type "B" attribute "a": type "A" refers to itself`},
		{"through another type used twice", object(nil, member("a", a), member("b", b)), `refers to itself`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := expr.JSONSchema(tc.att, "Args")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("JSONSchema error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
