package mcp_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// TestEnumOfConstants is the one rule by which mcp import and
// Session.Check read a union of constants; the rows marked "import" and
// "check" are the cases where each package's former copy of the rule
// answered otherwise.
func TestEnumOfConstants(t *testing.T) {
	cases := []struct {
		name     string
		branches string
		typ      string
		values   string // JSON; empty when the branches are no enum
	}{
		{name: "constants of one type", branches: `[{"const":"x"},{"const":"y"}]`, typ: "string", values: `["x","y"]`},
		{name: "the branches' order", branches: `[{"const":"y"},{"enum":["x","z"]}]`, typ: "string", values: `["y","x","z"]`},
		{name: "integers", branches: `[{"const":1},{"type":"integer","const":2}]`, typ: "integer", values: `[1,2]`},
		{name: "integers and numbers are numbers", branches: `[{"const":1},{"const":2.5}]`, typ: "number", values: `[1,2.5]`},
		{name: "booleans", branches: `[{"const":true},{"type":"boolean","const":false}]`, typ: "boolean", values: `[true,false]`},
		{name: "annotations beside", branches: `[{"const":"x","description":"X","title":"Ex"},{"const":"y","deprecated":true}]`, typ: "string", values: `["x","y"]`},
		// check: the type of an earlier branch's number refused a later branch's integer type.
		{name: "an integer type after a number", branches: `[{"const":1.5},{"type":"integer","const":2}]`, typ: "number", values: `[1.5,2]`},
		{name: "a number type accepts integers", branches: `[{"type":"number","const":1},{"const":2}]`, typ: "integer", values: `[1,2]`},
		// import: examples and default are annotations too.
		{name: "examples and default beside", branches: `[{"const":"x","examples":["x"]},{"const":"y","default":"y"}]`, typ: "string", values: `["x","y"]`},

		// import: a branch's type was not read.
		{name: "a type that refuses the branch's value", branches: `[{"type":"integer","const":"x"},{"const":"y"}]`},
		{name: "an integer type and a number", branches: `[{"type":"integer","const":1.5},{"const":2}]`},
		// import: a type list was not read.
		{name: "a type list", branches: `[{"type":["string","null"],"const":"x"},{"const":"y"}]`},
		// import took the const, check the union of both; a branch with
		// both accepts their intersection.
		{name: "const and enum in one branch", branches: `[{"const":"x","enum":["x","y"]},{"const":"z"}]`},
		// import: an empty enum was read as no values.
		{name: "an empty enum", branches: `[{"enum":[]},{"const":"y"}]`},
		{name: "an enum that is no list", branches: `[{"enum":"x"},{"const":"y"}]`},
		{name: "values of two types", branches: `[{"const":"x"},{"const":1}]`},
		{name: "a null value", branches: `[{"const":null},{"const":"y"}]`},
		{name: "a structured value", branches: `[{"const":{"a":1}},{"const":"y"}]`},
		{name: "another keyword", branches: `[{"const":"x","minLength":1},{"const":"y"}]`},
		{name: "a branch without a value", branches: `[{"type":"string"},{"const":"y"}]`},
		{name: "a branch that is no object", branches: `[true,{"const":"y"}]`},
		{name: "one branch", branches: `[{"enum":["x","y"]}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			branches := decodeNumbers(t, tc.branches).([]any)
			typ, values, ok := mcp.EnumOfConstants(branches)
			if tc.values == "" {
				if ok {
					t.Fatalf("an enum of %s %v, want none", typ, values)
				}
				return
			}
			if !ok {
				t.Fatal("no enum")
			}
			if typ != tc.typ || !reflect.DeepEqual(values, decodeNumbers(t, tc.values)) {
				t.Errorf("an enum of %s %v, want %s %s", typ, values, tc.typ, tc.values)
			}
		})
	}
}

// decodeNumbers decodes JSON as schemas are: numbers as json.Number.
func decodeNumbers(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
