package mcp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestSchemaDifference(t *testing.T) {
	const d07 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	cases := []struct {
		name             string
		declared, served string
		output           bool // compared as an outputSchema
		pointer, ds, ss  string
		same             bool
	}{
		// Normalizations: each pair accepts the same values.
		{name: "draft-07 $schema", declared: `{"type":"object"}`, served: `{` + d07 + `"type":"object"}`, same: true},
		{name: "draft-07 without #", declared: `{"type":"object"}`, served: `{"$schema":"http://json-schema.org/draft-07/schema","type":"object"}`, same: true},
		{name: "2020-12 $schema", declared: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, served: `{"type":"object"}`, same: true},
		{name: "annotations", declared: `{"type":"object","title":"T","description":"ours","properties":{"a":{"type":"string","description":"Ours","examples":["x"],"default":"y"}}}`,
			served: `{"type":"object","$comment":"c","properties":{"a":{"type":"string","description":"Theirs","deprecated":true,"readOnly":false}}}`, same: true},
		{name: "a property named like an annotation", declared: `{"properties":{"description":{"type":"string"}}}`, served: `{"properties":{"description":{"type":"string","title":"x"}}}`, same: true},
		{name: "type of one", declared: `{"type":"string"}`, served: `{"type":["string"]}`, same: true},
		{name: "type list order", declared: `{"type":["string","null"]}`, served: `{"type":["null","string","null"]}`, same: true},
		{name: "required order", declared: `{"required":["b","a"]}`, served: `{"required":["a","b"]}`, same: true},
		{name: "enum order", declared: `{"enum":["x",1,null]}`, served: `{"enum":[null,"x",1.0]}`, same: true},
		{name: "defaults", declared: `{"type":"object","properties":{"l":{"type":"array","items":{},"minItems":0,"uniqueItems":false},"s":{"type":"string","minLength":0}}}`,
			served: `{"type":"object","additionalProperties":true,"required":[],"patternProperties":{},"minProperties":0,"properties":{"l":{"type":"array","items":true},"s":{"type":"string"}}}`, same: true},
		{name: "subschema true", declared: `{"properties":{"a":true}}`, served: `{"properties":{"a":{}}}`, same: true},
		{name: "declared stricter additionalProperties", declared: `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}`,
			served: `{` + d07 + `"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`, same: true},
		{name: "stricter additionalProperties through anyOf and items", declared: `{"anyOf":[{"type":"array","items":{"type":"object","additionalProperties":false}}]}`,
			served: `{"anyOf":[{"type":"array","items":{"type":"object"}}]}`, same: true},
		{name: "server-filesystem read_text_file", declared: `{"type":"object","properties":{"path":{"type":"string","description":"Path of the file"},"head":{"type":"number"},"tail":{"type":"number"}},"required":["path"],"additionalProperties":false}`,
			served: `{` + d07 + `"type":"object","properties":{"path":{"type":"string"},"tail":{"description":"If provided, returns only the last N lines of the file","type":"number"},"head":{"description":"If provided, returns only the first N lines of the file","type":"number"}},"required":["path"]}`, same: true},

		{name: "draft-07 $ref beside definitions", declared: `{"$ref":"#/definitions/a","definitions":{"a":{"type":"string"}}}`,
			served: `{` + d07 + `"$ref":"#/definitions/a","definitions":{"a":{"type":"string"}}}`, same: true},

		// A definition and a subschema in place: gen defines a type used
		// more than once, a server may state it in place, or the reverse.
		{name: "a definition used twice and the same subschema in place", declared: `{"type":"object","properties":{"home":{"$ref":"#/$defs/address","description":"Home"},"others":{"type":"array","items":{"$ref":"#/$defs/address"}}},"additionalProperties":false,"$defs":{"address":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}}`,
			served: `{"type":"object","properties":{"home":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"others":{"type":"array","items":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}},"additionalProperties":false}`, same: true},
		{name: "the json-schema-2020-12 scenario's schema", declared: `{"type":"object","properties":{"name":{"type":"string"},"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"additionalProperties":false}`,
			served: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}`, same: true},
		{name: "definitions reached through definitions", declared: `{"properties":{"a":{"$ref":"#/$defs/outer"}},"$defs":{"outer":{"properties":{"b":{"$ref":"#/$defs/inner"}}},"inner":{"type":"string"}}}`,
			served: `{"properties":{"a":{"properties":{"b":{"type":"string"}}}}}`, same: true},
		{name: "draft-07 definitions", declared: `{"properties":{"a":{"type":"string"}}}`,
			served: `{` + d07 + `"properties":{"a":{"$ref":"#/definitions/s","description":"ignored beside $ref"}},"definitions":{"s":{"type":"string"}}}`, same: true},
		{name: "names escaped in the reference", declared: `{"properties":{"a":{"$ref":"#/$defs/a~1b~0c%20d"}},"$defs":{"a/b~c d":{"type":"string"}}}`,
			served: `{"properties":{"a":{"type":"string"}}}`, same: true},
		{name: "an assertion beside a reference applies with the definition", declared: `{"properties":{"a":{"$ref":"#/$defs/id","maxLength":8}},"$defs":{"id":{"type":"string","pattern":"^[a-z]+$"}}}`,
			served: `{"properties":{"a":{"type":"string","pattern":"^[a-z]+$","maxLength":8}}}`, same: true},
		{name: "a root that refers to a definition true", declared: `{"$ref":"#/$defs/t","$defs":{"t":true}}`, served: `{}`, same: true},
		{name: "a root that refers to a definition false", declared: `{"$ref":"#/$defs/f","$defs":{"f":false}}`, served: `{}`, pointer: "/$defs", ds: `{"f":false}`, ss: "absent"},
		{name: "definitions no reference uses", declared: `{"type":"object","$defs":{"x":{"additionalProperties":false}}}`, served: `{"type":"object","$defs":{"y":{}}}`, same: true},
		{name: "a property declared Any", declared: `{"type":"object","properties":{"content":{"description":"Any"}},"required":["content"],"additionalProperties":false}`,
			served: `{` + d07 + `"type":"object","properties":{"content":{"type":"array","items":{"anyOf":[{"type":"string"},{"const":1}]}}},"required":["content"],"additionalProperties":false}`, output: true, same: true},
		{name: "a property declared Any in array items", declared: `{"type":"array","items":{"type":"object","properties":{"a":{}}}}`,
			served: `{"type":"array","items":{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}}}}`, same: true},

		// Nullable, propertyNames, formats the DSL lacks, alternatives
		// and a root without a type.
		{name: "string or null argument", declared: `{"type":"object","properties":{"a":{"type":"string","maxLength":3}},"required":["a"]}`,
			served: `{"type":"object","properties":{"a":{"type":["string","null"],"maxLength":3}},"required":["a"]}`, same: true},
		{name: "anyOf of X and null argument", declared: `{"type":"object","properties":{"a":{"type":"integer","minimum":1}}}`,
			served: `{"type":"object","properties":{"a":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}],"description":"N"}}}`, same: true},
		{name: "boolean where the server takes boolean or string", declared: `{"type":"object","properties":{"a":{"type":"boolean"}}}`,
			served: `{"type":"object","properties":{"a":{"type":["boolean","string"]}}}`, same: true},
		{name: "bounds and enum inside the server's", declared: `{"type":"object","properties":{"a":{"type":"string","maxLength":5,"minLength":2,"enum":["ab","cd"]},"n":{"type":"integer","minimum":3}},"required":["a","n"]}`,
			served: `{"type":"object","properties":{"a":{"type":"string","maxLength":10,"enum":["ab","cd","ef"]},"n":{"type":"integer","minimum":1}},"required":["a"]}`, same: true},
		{name: "propertyNames string", output: true, declared: `{"type":"object","additionalProperties":{"type":"string"}}`,
			served: `{"type":"object","additionalProperties":{"type":"string"},"propertyNames":{"type":"string"}}`, same: true},
		{name: "formats the DSL lacks", output: true, declared: `{"type":"object","properties":{"n":{"type":"integer"},"u":{"type":"string"}}}`,
			served: `{"type":"object","properties":{"n":{"type":"integer","format":"int64"},"u":{"type":"string","format":"uri-reference"}}}`, same: true},
		{name: "constants are an enum", output: true, declared: `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}`,
			served: `{"type":"object","properties":{"a":{"anyOf":[{"const":"y"},{"type":"string","const":"x"}]}}}`, same: true},
		{name: "constants, an integer type after a number", output: true, declared: `{"type":"object","properties":{"a":{"type":"number","enum":[1.5,2]}}}`,
			served: `{"type":"object","properties":{"a":{"anyOf":[{"const":1.5},{"type":"integer","const":2}]}}}`, same: true},
		{name: "constants under their type", declared: `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}`,
			served: `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"const":"x"},{"const":"y"}]}}}`, same: true},
		{name: "an anyOf of one branch", output: true, declared: `{"type":"object","properties":{"a":{"type":"string"}}}`,
			served: `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}],"description":"A"}}}`, same: true},
		{name: "a root without a type", output: true, declared: `{"type":"object","properties":{"q":{"type":"string"}}}`,
			served: `{"properties":{"q":{"type":"string"}}}`, same: true},

		{name: "a result property that may be null, declared optional", output: true,
			declared: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"],"additionalProperties":false}`,
			served:   `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`, same: true},
		{name: "a result property that may be null, declared required", output: true,
			declared: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			served:   `{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`, pointer: "/properties/a/type", ds: `"string"`, ss: `["null","string"]`},

		// Real differences, each refused at its first difference.
		{name: "Any is a property's, not the whole schema's", declared: `{"type":"object","properties":{"a":{"type":"object","properties":{}}}}`,
			served: `{"type":"object","properties":{"a":{"type":"string"}}}`, pointer: "/properties/a/type", ds: `"object"`, ss: `"string"`},
		{name: "a property declared Any the server lacks", declared: `{"type":"object","properties":{"a":{}}}`,
			served: `{"type":"object","properties":{}}`, pointer: "/properties", ds: `{"a":{}}`, ss: "absent"},
		{name: "a const and an enum in one branch are no enum", declared: `{"properties":{"a":{"type":"string","enum":["x","y","z"]}}}`,
			served: `{"properties":{"a":{"anyOf":[{"const":"x","enum":["x","y"]},{"const":"z"}]}}}`, pointer: "/properties/a/anyOf", ds: "absent", ss: `[{"const":"x","enum":["x","y"]},{"const":"z"}]`},
		{name: "type", declared: `{"properties":{"n":{"type":"number"}}}`, served: `{"properties":{"n":{"type":"integer"}}}`, pointer: "/properties/n/type", ds: `"number"`, ss: `"integer"`},
		{name: "a narrower type in a result", output: true, declared: `{"properties":{"n":{"type":"integer"}}}`, served: `{"properties":{"n":{"type":"number"}}}`, pointer: "/properties/n/type", ds: `"integer"`, ss: `"number"`},
		{name: "type list", declared: `{"type":["string","null"]}`, served: `{"type":"string"}`, pointer: "/type", ds: `["null","string"]`, ss: `"string"`},
		{name: "required", declared: `{"required":["a"]}`, served: `{"required":["a","b"]}`, pointer: "/required/1", ds: "absent", ss: `"b"`},
		{name: "enum", declared: `{"enum":["a","b"]}`, served: `{"enum":["a","c"]}`, pointer: "/enum/1", ds: `"b"`, ss: `"c"`},
		{name: "property on the server only", declared: `{"properties":{"a":{}}}`, served: `{"properties":{"a":{},"b":{}}}`, pointer: "/properties/b", ds: "absent", ss: "{}"},
		{name: "property declared only", declared: `{"properties":{"a":{},"b":{}},"additionalProperties":false}`, served: `{"properties":{"a":{}}}`, pointer: "/properties/b", ds: "{}", ss: "absent"},
		{name: "minimum", declared: `{"minimum":0}`, served: `{"minimum":1}`, pointer: "/minimum", ds: "0", ss: "1"},
		{name: "a higher minimum in a result", output: true, declared: `{"minimum":1}`, served: `{"minimum":0}`, pointer: "/minimum", ds: "1", ss: "0"},
		{name: "maxLength in a result", output: true, declared: `{"maxLength":10}`, served: `{}`, pointer: "/maxLength", ds: "10", ss: "absent"},
		{name: "maxLength above the server's", declared: `{"properties":{"a":{"type":"string","maxLength":20}}}`, served: `{"properties":{"a":{"type":"string","maxLength":10}}}`, pointer: "/properties/a/maxLength", ds: "20", ss: "10"},
		{name: "one of two overlapping oneOf branches", declared: `{"type":"object","properties":{"a":{"type":"string"}}}`,
			served: `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"string","maxLength":3}]}}}`, pointer: "/properties/a/oneOf", ds: "absent", ss: `[{"type":"string"},{"maxLength":3,"type":"string"}]`},
		{name: "a oneOf branch of its own type", declared: `{"type":"object","properties":{"a":{"type":"string"}}}`,
			served: `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"null"}]}}}`, same: true},
		{name: "a type the server's union lacks", declared: `{"type":"object","properties":{"a":{"type":"integer"}}}`, served: `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`, pointer: "/properties/a/anyOf", ds: "absent", ss: `[{"type":"string"},{"type":"array"}]`},
		{name: "a required property the server does not require in a result", output: true, declared: `{"required":["a","b"]}`, served: `{"required":["a"]}`, pointer: "/required/1", ds: `"b"`, ss: "absent"},
		{name: "minLength above 0", declared: `{}`, served: `{"minLength":1}`, pointer: "/minLength", ds: "absent", ss: "1"},
		{name: "server stricter additionalProperties", declared: `{"type":"object"}`, served: `{"type":"object","additionalProperties":false}`, pointer: "/additionalProperties", ds: "absent", ss: "false"},
		{name: "additionalProperties schema", declared: `{"additionalProperties":false}`, served: `{"additionalProperties":{"type":"string"}}`, pointer: "/additionalProperties", ds: "false", ss: `{"type":"string"}`},
		{name: "stricter additionalProperties under not", declared: `{"not":{"additionalProperties":false}}`, served: `{"not":{}}`, pointer: "/not/additionalProperties", ds: "false", ss: "absent"},
		{name: "stricter additionalProperties under oneOf", declared: `{"oneOf":[{"additionalProperties":false},{"type":"string"}]}`, served: `{"oneOf":[{},{"type":"string"}]}`, pointer: "/oneOf/0/additionalProperties", ds: "false", ss: "absent"},
		{name: "stricter additionalProperties in a recursive definition", declared: `{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"properties":{"next":{"$ref":"#/$defs/x"}},"additionalProperties":false}}}`,
			served: `{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"properties":{"next":{"$ref":"#/$defs/x"}}}}}`, pointer: "/$defs/x/additionalProperties", ds: "false", ss: "absent"},
		{name: "stricter additionalProperties in an output", output: true, declared: `{"type":"object","additionalProperties":false}`, served: `{"type":"object"}`, pointer: "/additionalProperties", ds: "false", ss: "absent"},
		{name: "draft-04", declared: `{"type":"object"}`, served: `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, pointer: "/$schema", ds: "absent", ss: `"http://json-schema.org/draft-04/schema#"`},
		{name: "draft-07 tuple items", declared: `{"items":[{"type":"string"}]}`, served: `{` + d07 + `"items":[{"type":"string"}]}`, pointer: "/$schema", ds: "absent", ss: `"http://json-schema.org/draft-07/schema#"`},
		// draft-07 ignores the keywords beside $ref; 2020-12 applies them.
		{name: "draft-07 $ref beside a keyword", declared: `{"type":"object","properties":{"p":{"$ref":"#/$defs/a","type":"string"}},"$defs":{"a":{}}}`, served: `{` + d07 + `"type":"object","properties":{"p":{"$ref":"#/$defs/a","type":"string"}},"$defs":{"a":{}}}`, pointer: "/properties/p/type", ds: `"string"`, ss: "absent"},
		{name: "draft-07 $ref to no definition beside a keyword", declared: `{"$ref":"#/$defs/b","type":"object","$defs":{"a":{}}}`, served: `{` + d07 + `"$ref":"#/$defs/b","type":"object","$defs":{"a":{}}}`, pointer: "/$schema", ds: "absent", ss: `"http://json-schema.org/draft-07/schema#"`},
		{name: "a definition that differs, at the place that uses it", declared: `{"properties":{"home":{"$ref":"#/$defs/address"},"work":{"$ref":"#/$defs/address"}},"$defs":{"address":{"type":"object","properties":{"city":{"type":"string"}}}}}`,
			served: `{"properties":{"home":{"type":"object","properties":{"city":{"type":"integer"}}},"work":{"type":"object","properties":{"city":{"type":"string"}}}}}`, pointer: "/properties/home/properties/city/type", ds: `"string"`, ss: `"integer"`},
		{name: "a reference beside a keyword that is no assertion on the value stays", declared: `{"properties":{"a":{"$ref":"#/$defs/x","properties":{"b":{}}}},"$defs":{"x":{"type":"object"}}}`,
			served: `{"properties":{"a":{"type":"object","properties":{"b":{}}}}}`, pointer: "/$defs", ds: `{"x":{"type":"object"}}`, ss: "absent"},
		{name: "a reference beside a keyword its definition states stays", declared: `{"properties":{"a":{"$ref":"#/$defs/x","maxLength":3}},"$defs":{"x":{"maxLength":5}}}`,
			served: `{"properties":{"a":{"maxLength":3}}}`, pointer: "/$defs", ds: `{"x":{"maxLength":5}}`, ss: "absent"},
		{name: "a recursive definition stays", declared: `{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"properties":{"next":{"$ref":"#/$defs/x"}}}}}`,
			served: `{"properties":{"a":{"properties":{"next":{"properties":{"next":{}}}}}}}`, pointer: "/$defs", ds: `{"x":{"properties":{"next":{"$ref":"#/$defs/x"}}}}`, ss: "absent"},
		{name: "enum values are not schemas", declared: `{"enum":[{"description":"a"}]}`, served: `{"enum":[{"description":"b"}]}`, pointer: "/enum/0/description", ds: `"a"`, ss: `"b"`},
		{name: "const values are not schemas", declared: `{"const":{"type":["x"]}}`, served: `{"const":{"type":"x"}}`, pointer: "/const/type", ds: `["x"]`, ss: `"x"`},
		{name: "false is not {}", declared: `{"properties":{"a":false}}`, served: `{"properties":{"a":{}}}`, pointer: "/properties/a", ds: "false", ss: "{}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := schemaDifference([]byte(tc.declared), []byte(tc.served), !tc.output)
			if err != nil {
				t.Fatal(err)
			}
			if tc.same {
				if d != nil {
					t.Fatalf("difference %+v between equivalent schemas", *d)
				}
				return
			}
			if d == nil {
				t.Fatal("no difference found")
			}
			if d.pointer != tc.pointer || d.left != tc.ds || d.right != tc.ss {
				t.Errorf("difference = {%s %s %s}, want {%s %s %s}", d.pointer, d.left, d.right, tc.pointer, tc.ds, tc.ss)
			}
		})
	}
	if _, err := schemaDifference([]byte(`{"a":1,"a":2}`), []byte(`{}`), true); err == nil {
		t.Error("duplicate keys accepted")
	}
}

// FuzzSchemaDifference compares any two documents a server or a design
// could send: invalid JSON is an error, a schema never differs from itself
// or from its own canonical form, and the canonical form is a fixed point.
func FuzzSchemaDifference(f *testing.F) {
	f.Add([]byte(`{"type":["string"],"description":"x"}`), []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}`))
	f.Add([]byte(`{"properties":{"a":{"additionalProperties":false}},"additionalProperties":false}`), []byte(`{"properties":{"a":{}}}`))
	f.Add([]byte(`{"anyOf":[true,{"items":[{"enum":[2,1,1]}]}],"required":["b","a"]}`), []byte(`{"not":{"minLength":0}}`))
	f.Add([]byte(`{"properties":{"a":{"$ref":"#/$defs/x","maxLength":1},"b":{"$ref":"#/$defs/x"}},"$defs":{"x":{"items":{"$ref":"#/$defs/x"}},"y":true}}`), []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/z","definitions":{"z":{"type":"string"}}}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_, errA := tools.Canonicalize(a)
		_, errB := tools.Canonicalize(b)
		for _, input := range []bool{true, false} {
			_, err := schemaDifference(a, b, input)
			if (err != nil) != (errA != nil || errB != nil) {
				t.Fatalf("schemaDifference error %v, canonical JSON errors %v, %v", err, errA, errB)
			}
		}
		if errA != nil {
			return
		}
		if d, err := schemaDifference(a, a, true); err != nil || d != nil {
			t.Fatalf("a schema differs from itself: %+v %v", d, err)
		}
		c, _ := tools.Canonicalize(a)
		v, _ := decodeNumbers(c)
		once, err := json.Marshal(canonicalSchema(v))
		if err != nil {
			t.Fatal(err)
		}
		if d, err := schemaDifference(a, once, false); err != nil || d != nil {
			t.Fatalf("a schema differs from its canonical form %s: %+v %v", once, d, err)
		}
		v2, _ := decodeNumbers(once)
		twice, _ := json.Marshal(canonicalSchema(v2))
		if !bytes.Equal(once, twice) {
			t.Fatalf("canonical form %s is not a fixed point: %s", once, twice)
		}
	})
}
