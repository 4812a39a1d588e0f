package mcpimport

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
)

// readList reads a tools/list result of testdata.
func readList(t testing.TB, name string) []Tool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tools []struct {
			Name, Title, Description  string
			InputSchema, OutputSchema json.RawMessage
		}
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	list := make([]Tool, len(res.Tools))
	for i, x := range res.Tools {
		list[i] = Tool{Name: x.Name, Title: x.Title, Description: x.Description, InputSchema: x.InputSchema, OutputSchema: x.OutputSchema}
	}
	return list
}

// TestWriteGolden writes the design files of the tools/list results of
// server-everything and server-filesystem (2026.8.31) and compares them
// with testdata/*.design.go.golden (GOA_DISCOVERY_UPDATE=1 rewrites them).
func TestWriteGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"everything", Options{Server: "everything", Agent: "lab", Deferred: true, Source: "stdio"}},
		{"filesystem", Options{Server: "filesystem", Toolset: "files", Any: true, Source: "stdio"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Write(readList(t, tc.name), tc.o)
			if err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", tc.name+".design.go.golden"), res.File)
		})
	}
}

func TestWriteAttributes(t *testing.T) {
	cases := []struct {
		name, input, output string
		any                 bool
		// want are lines the file holds; problem is the first problem's
		// text.
		want    []string
		problem string
		// problems, when set, is how many problems the tool has.
		problems int
	}{
		{name: "primitives and validations", input: `{"type":"object","properties":{
			"s":{"type":"string","minLength":1,"maxLength":9,"pattern":"^a","format":"email","description":"S"},
			"i":{"type":"integer","minimum":1,"exclusiveMaximum":10,"default":2},
			"n":{"type":"number","exclusiveMinimum":0.5,"enum":[1,2.5]},
			"b":{"type":"boolean","examples":[true]},
			"raw":{"type":"string","contentEncoding":"base64"},
			"x":{}},"required":["s"]}`,
			want: []string{`Attribute("s", String, "S", func() {`, `Format(FormatEmail)`, `Pattern("^a")`, `MinLength(1)`, `MaxLength(9)`,
				`Attribute("i", Int, func() {`, `Minimum(1)`, `ExclusiveMaximum(10)`, `Default(2)`,
				`Attribute("n", Float64, func() {`, `Enum(1.0, 2.5)`, `ExclusiveMinimum(0.5)`,
				`Example(true)`, `Attribute("raw", Bytes)`, `Attribute("x", Any)`, `Required("s")`}},
		{name: "arrays, maps and nested objects named after their path", input: `{"type":"object","properties":{
			"edits":{"type":"array","minItems":1,"items":{"type":"object","properties":{"old":{"type":"string"}},"required":["old"]}},
			"labels":{"type":"object","additionalProperties":{"type":"string","minLength":2}},
			"opts":{"type":"object","properties":{"deep":{"type":"boolean"}}},
			"tags":{"type":"array","items":{"type":"string","description":"A tag"},"default":["a"]}}}`,
			want: []string{`Attribute("edits", ArrayOf(SrvEditArgsEditsItem), func() {`, `MinLength(1)`,
				`var SrvEditArgsEditsItem = Type("SrvEditArgsEditsItem", func() {`, `Required("old")`,
				`Attribute("labels", MapOf(String, String, func() {`,
				`Attribute("opts", SrvEditArgsOpts)`, `var SrvEditArgsOpts = Type("SrvEditArgsOpts", func() {`,
				`Attribute("tags", ArrayOf(String, func() {`, `Description("A tag")`, `Default([]any{"a"})`}},
		{name: "result", input: `{"type":"object"}`, output: `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`,
			want: []string{`Return(func() {`, `Attribute("n", Int)`, `Required("n")`}},
		{name: "no arguments", input: `{"type":"object","properties":{}}`, want: []string{`Tool("edit", "Edit things", func() {})`}},
		{name: "anyOf of one branch is the branch", input: `{"type":"object","properties":{"a":{"description":"A","anyOf":[{"type":"string","maxLength":3}]}}}`,
			want: []string{`Attribute("a", String, "A", func() {`, `MaxLength(3)`}},
		{name: "a union in a result", input: `{"type":"object"}`, output: `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}},"additionalProperties":false}`,
			problem: `tool "edit": outputSchema at /properties/a/anyOf: a value of one of several types (string, array of string): the DSL declares one type per attribute`},
		{name: "a union of objects", input: `{"type":"object","properties":{"a":{"oneOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"object","properties":{"y":{"type":"string"}}}]}}}`,
			problem: `tool "edit": inputSchema at /properties/a/oneOf: a value of one of several types (object, object): the DSL declares one type per attribute`},
		{name: "an object or a string argument is the object", input: `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"object","properties":{"x":{"type":"string"}}}],"description":"A"}}}`,
			want: []string{`Attribute("a", SrvEditArgsA, "A")`, `Attribute("x", String)`}},
		{name: "a boolean or string argument is the boolean", input: `{"type":"object","properties":{"a":{"type":["boolean","string"],"description":"Flag"}}}`,
			want: []string{`Attribute("a", Boolean, "Flag")`}},
		{name: "a union declared Any keeps its branch's description and its types", any: true,
			input: `{"type":"object","properties":{"a":{"anyOf":[{"type":"string","description":"A path"},{"type":"integer"}]}}}`,
			want:  []string{`Attribute("a", Any, "A path (Type: string or integer)")`}},
		{name: "a type list declared Any keeps its description and its types", any: true,
			input: `{"type":"object","properties":{"a":{"type":["boolean","integer"],"description":"Flag"}}}`,
			want:  []string{`Attribute("a", Any, "Flag (Type: boolean or integer)")`}},
		{name: "a type list", input: `{"type":"object","properties":{"a":{"type":["string","integer","boolean","null"]}}}`,
			problem: `inputSchema at /properties/a/type: a value of one of several types ["string","integer","boolean","null"]`},
		{name: "string or null is a string argument", input: `{"type":"object","properties":{"a":{"type":["string","null"],"description":"A","maxLength":3}},"required":["a"]}`,
			want: []string{`Attribute("a", String, "A", func() {`, `MaxLength(3)`, `Required("a")`}},
		{name: "anyOf of X and null is X", input: `{"type":"object","properties":{"a":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}],"description":"N","default":2}}}`,
			want: []string{`Attribute("a", Int, "N", func() {`, `Minimum(1)`, `Default(2)`}},
		{name: "a result property that may be null is optional", input: `{"type":"object"}`,
			output: `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"anyOf":[{"type":"integer"},{"type":"null"}]},"c":{"type":"string"}},"required":["a","b","c"],"additionalProperties":false}`,
			want:   []string{`Attribute("a", String)`, `Attribute("b", Int)`, `Required("c")`}},
		{name: "null in a result's array", input: `{"type":"object"}`, output: `{"type":"object","properties":{"a":{"type":"array","items":{"type":["string","null"]}}},"additionalProperties":false}`,
			problem: `outputSchema at /properties/a/items: a value that may be null (string or null) in a result, not as a property`},
		{name: "propertyNames string rejects nothing", input: `{"type":"object","properties":{"a":{"type":"object","additionalProperties":{"type":"string"},"propertyNames":{"type":"string"}}}}`,
			want: []string{`Attribute("a", MapOf(String, String))`}},
		{name: "propertyNames with a pattern", input: `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"type":"string","pattern":"^a"}}}}`,
			problem: `inputSchema at /properties/a/propertyNames: propertyNames {"pattern":"^a","type":"string"}: the DSL declares no rule for the names of properties`},
		{name: "constants are an enum", input: `{"type":"object","properties":{"a":{"anyOf":[{"const":"x"},{"const":"y","description":"Y"}],"description":"A"}}}`,
			want: []string{`Attribute("a", String, "A", func() {`, `Enum("x", "y")`}},
		{name: "constants with examples are an enum", input: `{"type":"object","properties":{"a":{"anyOf":[{"const":"x","examples":["x"]},{"const":"y"}]}}}`,
			want: []string{`Attribute("a", String, func() {`, `Enum("x", "y")`}},
		{name: "constants under their type are an enum", input: `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"const":"x"},{"const":"y"}]}}}`,
			want: []string{`Attribute("a", String, func() {`, `Enum("x", "y")`}},
		{name: "a const its branch's type refuses is no enum", input: `{"type":"object","properties":{"a":{"anyOf":[{"type":"integer","const":"x"},{"const":"y"}]}}}`,
			problem: `inputSchema at /properties/a/anyOf: a value of one of several types (integer, any)`},
		{name: "an int64 format is an Int", input: `{"type":"object","properties":{"a":{"type":"integer","format":"int64","minimum":0}}}`,
			want: []string{`Attribute("a", Int, func() {`, `Minimum(0)`}},
		{name: "a string format the DSL lacks", input: `{"type":"object","properties":{"a":{"type":"string","format":"uri-reference"}}}`,
			want: []string{`Attribute("a", String)`}},
		{name: "a root without a type is an object", input: `{"properties":{"q":{"type":"string"}},"required":["q"]}`,
			want: []string{`Attribute("q", String)`, `Required("q")`}},
		{name: "a property named like JSON tag options", input: `{"type":"object","properties":{"n,string":{"type":"string"},"ok":{"type":"string"}}}`,
			problem: `inputSchema at /properties/n,string: property name "n,string" holds ',', which a JSON struct tag's name cannot hold`, problems: 1},
		{name: "a property named -", input: `{"type":"object","properties":{"-":{"type":"string"}},"required":["-"]}`,
			want: []string{`Attribute("-", String)`, `Required("-")`}},
		{name: "a NUL in a description", input: `{"type":"object","properties":{"a":{"type":"string","description":"x\u0000y"}}}`,
			problem: `inputSchema at /properties/a/description: a text holding a NUL character`},
		{name: "a definition with no name", input: `{"type":"object","$defs":{"":{"type":"string"}}}`,
			problem: `inputSchema at /$defs/: a definition with no name`},
		{name: "a schema deeper than the runtime's limit", input: `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","items":`, 40) + `{}` + strings.Repeat(`}`, 40) + `}}`,
			problem: `inputSchema at /: mcp server "srv": tool "edit": 43 inputSchema depth exceed the limit of 32`},
		{name: "a definition named like the toolset", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/srv"}},"$defs":{"srv":{"type":"object","properties":{"x":{"type":"string"}}}}}`,
			want: []string{`Attribute("a", SrvSrv)`, `var SrvSrv = Type("SrvSrv", func() {`, `var Srv = Toolset(`}},
		{name: "a definition named with a non-ASCII digit first", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/٣x"}},"$defs":{"٣x":{"type":"object","properties":{"x":{"type":"string"}}}}}`,
			want: []string{`Attribute("a", Srv`}},
		{name: "every refused property at once", input: `{"type":"object","properties":{"a":{"not":{}},"b":{"type":"array","uniqueItems":true},"c":{"type":"string","if":{}}}}`,
			problem: `inputSchema at /properties/a/not`, problems: 3},
		{name: "a result object that admits other properties", input: `{"type":"object"}`, output: `{"type":"object","properties":{"a":{"type":"string"}}}`,
			problem: `outputSchema at /: an object that admits other properties than its own`},
		{name: "a nested result object that admits other properties, declared Any", input: `{"type":"object"}`, any: true,
			output: `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}},"additionalProperties":false}`,
			want:   []string{`Attribute("a", Any)`}},
		{name: "required of no property", input: `{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`,
			problem: `inputSchema at /required/0: required "b" is no property of the object`},
		{name: "a tuple", input: `{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`,
			problem: `inputSchema at /properties/a/items: items as a list (a tuple)`},
		{name: "unique items", input: `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
			problem: `inputSchema at /properties/a/uniqueItems: uniqueItems`},
		{name: "an enum value of another type", input: `{"type":"object","properties":{"a":{"type":"string","enum":["x",1]}}}`,
			problem: `inputSchema at /properties/a/enum/1: enum value 1 is not a value of the attribute's type`},
		// Definitions and references.
		{name: "a reference to a string", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/id","description":"The id"}},"$defs":{"id":{"type":"string","pattern":"^[a-z]+$"}}}`,
			want: []string{`Attribute("a", String, "The id", func() {`, `Pattern("^[a-z]+$")`}},
		{name: "an object definition used twice is one type named as the definition", input: `{"type":"object","properties":{
			"home":{"$ref":"#/$defs/address","description":"Home"},
			"others":{"type":"array","items":{"$ref":"#/$defs/address"}}},"additionalProperties":false,
			"$defs":{"address":{"type":"object","description":"A postal address","properties":{"city":{"type":"string"},"geo":{"type":"object","properties":{"lat":{"type":"number"}}}},"required":["city"]}}}`,
			want: []string{`Attribute("home", SrvAddress, "Home")`, `Attribute("others", ArrayOf(SrvAddress))`,
				`// SrvAddress is definition "address" of a tool's schema ($defs).`, `var SrvAddress = Type("SrvAddress", func() {`, `Description("A postal address")`,
				`Attribute("geo", SrvAddressGeo)`, `var SrvAddressGeo = Type("SrvAddressGeo", func() {`, `Required("city")`}},
		{name: "the json-schema-2020-12 scenario's schema", input: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			"$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
			"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}`,
			want: []string{`Attribute("name", String)`, `Attribute("address", SrvAddress)`, `var SrvAddress = Type("SrvAddress", func() {`, `Attribute("street", String)`}},
		{name: "a definition reached through a definition", input: `{"type":"object","properties":{"a":{"$ref":"#/definitions/outer"}},
			"definitions":{"outer":{"type":"object","properties":{"in":{"$ref":"#/definitions/inner"}}},"inner":{"type":"object","properties":{"n":{"type":"integer"}}}}}`,
			want: []string{`Attribute("a", SrvOuter)`, `var SrvOuter = Type("SrvOuter", func() {`, `Attribute("in", SrvInner)`, `var SrvInner = Type("SrvInner", func() {`}},
		{name: "a name escaped in the reference", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/my~1type%20x"}},"$defs":{"my/type x":{"type":"object"}}}`,
			want: []string{`Attribute("a", SrvMyTypeX)`, `var SrvMyTypeX = Type("SrvMyTypeX", func() {`}},
		{name: "the root a reference", input: `{"$ref":"#/$defs/args","$defs":{"args":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}`,
			want: []string{`Args(func() {`, `Attribute("q", String)`, `Required("q")`}},
		{name: "a reference to no definition", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/y"}},"$defs":{"x":{"type":"string"}}}`,
			problem: `inputSchema at /properties/a/$ref: reference "#/$defs/y" is to no definition of the schema's $defs`},
		{name: "a reference to another document", input: `{"type":"object","properties":{"a":{"$ref":"other.json#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`,
			problem: `inputSchema at /properties/a/$ref: reference "other.json#/$defs/x" is to no definition`},
		{name: "a reference to a definition inside itself", input: `{"type":"object","properties":{"tree":{"$ref":"#/$defs/node"}},
			"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`,
			problem: `inputSchema at /$defs/node/properties/children/items/$ref: reference to definition "node" inside itself: the DSL declares no recursive types`},
		{name: "a problem inside a definition, at its pointer", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"object","properties":{"b":{"not":{}}}}}}`,
			problem: `inputSchema at /$defs/x/properties/b/not: keyword "not" has no DSL counterpart`},
		{name: "a keyword beside a reference", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/x","minLength":2}},"$defs":{"x":{"type":"string"}}}`,
			problem: `inputSchema at /properties/a/minLength: keyword "minLength" beside $ref: the DSL states the use of a type with a description, a default and examples only`},
		{name: "$defs not an object", input: `{"type":"object","$defs":[]}`, problem: `inputSchema at /$defs: $defs is an object of schemas, got []`},
		{name: "two definitions of one Go name", input: `{"type":"object","properties":{"a":{"$ref":"#/$defs/address"},"b":{"$ref":"#/$defs/Address"}},"$defs":{"address":{"type":"object"},"Address":{"type":"object"}}}`,
			problem: `two types would both be Go type SrvAddress: definition "Address" and definition "address"`},
		{name: "another dialect", input: `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`,
			problem: `inputSchema at /$schema: dialect "http://json-schema.org/draft-04/schema#"`},
		{name: "not an object", input: `{"type":"string"}`, problem: `inputSchema at /: the schema of a tool's arguments or result is an object here`},
		{name: "not JSON", input: `{"type":`, problem: `inputSchema at /: invalid schema`},
		{name: "a key escaped in its pointer", input: `{"type":"object","properties":{"a/b":{"not":{}}}}`,
			problem: `inputSchema at /properties/a~1b/not`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			list := []Tool{{Name: "edit", Description: "Edit things", InputSchema: json.RawMessage(tc.input)}}
			if tc.output != "" {
				list[0].OutputSchema = json.RawMessage(tc.output)
			}
			res, err := Write(list, Options{Server: "srv", Any: tc.any})
			if tc.problem != "" {
				var problems Errors
				if !errors.As(err, &problems) || !strings.Contains(problems[0].Error(), tc.problem) {
					t.Fatalf("error %v, want a problem holding %q", err, tc.problem)
				}
				if tc.problems > 0 && len(problems) != tc.problems {
					t.Errorf("%d problems, want %d:\n%v", len(problems), tc.problems, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(res.File), w) {
					t.Errorf("the file holds no %q:\n%s", w, res.File)
				}
			}
		})
	}
}

func TestWriteOptions(t *testing.T) {
	list := []Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	for _, tc := range []struct {
		name string
		o    Options
		err  string
	}{
		{"server name", Options{Server: "a b"}, "server name"},
		{"deferred without agent", Options{Server: "s", Deferred: true}, "name the agent"},
		{"agent name", Options{Server: "s", Agent: "1x"}, "agent name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Write(list, tc.o); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want one about %q", err, tc.err)
			}
		})
	}
	for _, tc := range []struct {
		name string
		tool Tool
		want string
	}{
		{"no name", Tool{InputSchema: json.RawMessage(`{"type":"object"}`)}, `tool "": name at /: a tool with no name`},
		{"a byte order mark", Tool{Name: "t", Description: "\uFEFFReads", InputSchema: json.RawMessage(`{"type":"object"}`)}, `tool "t": description at /: a text holding a byte order mark`},
	} {
		if _, err := Write([]Tool{tc.tool}, Options{Server: "s"}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	dup := []Tool{{Name: "a.b", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "a_b", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	if _, err := Write(dup, Options{Server: "s"}); err == nil || !strings.Contains(err.Error(), `the same tool name "a_b"`) {
		t.Errorf("two tools of one tool name: error %v", err)
	}
	res, err := Write([]Tool{{Name: "x", InputSchema: json.RawMessage(`{"type":"object"}`)}}, Options{Server: "files"})
	if err != nil || !strings.Contains(string(res.File), "var FilesToolset = Toolset(") {
		t.Errorf("a toolset named like Goa's Files: %v\n%s", err, res.File)
	}
}

// FuzzWrite writes the design of one tool whose schemas are the fuzzer's:
// it never panics, and what it accepts is gofmt'ed Go (Write formats it)
// and written the same way twice.
func FuzzWrite(f *testing.F) {
	for _, name := range []string{"everything", "filesystem"} {
		for _, tool := range readList(f, name) {
			f.Add([]byte(tool.InputSchema), []byte(tool.OutputSchema), true)
		}
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"enum":[1]}}}}}}`), []byte(nil), false)
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x","default":"q"},"b":{"type":"array","items":{"$ref":"#/$defs/o"}}},"$defs":{"x":{"type":"string"},"o":{"type":"object","properties":{"c":{"$ref":"#/$defs/o"}}},"u":{}}}`),
		[]byte(`{"type":"object","properties":{"r":{"$ref":"#/definitions/r"}},"additionalProperties":false,"definitions":{"r":{"type":"object","additionalProperties":false}}}`), true)
	f.Fuzz(func(t *testing.T, input, output []byte, anyOK bool) {
		list := []Tool{{Name: "t", Description: "d", InputSchema: input, OutputSchema: output}}
		res, err := Write(list, Options{Server: "s", Any: anyOK})
		if err != nil {
			var problems Errors
			if !errors.As(err, &problems) || len(problems) == 0 {
				t.Fatalf("an error that is no list of problems: %v", err)
			}
			return
		}
		again, err := Write(list, Options{Server: "s", Any: anyOK})
		if err != nil || string(again.File) != string(res.File) {
			t.Fatalf("a second write differs: %v", err)
		}
	})
}

// TestWriteDefinitionsAcrossTools covers definitions of several schemas:
// one name and the same JSON is one type, one name and different JSON is
// a problem, and a definition no reference uses is a note.
func TestWriteDefinitionsAcrossTools(t *testing.T) {
	tool := func(name, def string) Tool {
		return Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object","properties":{"at":{"$ref":"#/$defs/address"}},"$defs":{"address":` + def + `,"unused":{}}}`)}
	}
	same := `{"type":"object","properties":{"city":{"type":"string"}}}`
	res, err := Write([]Tool{tool("a", same), tool("b", same)}, Options{Server: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(res.File), `= Type("SAddress"`); n != 1 {
		t.Errorf("the definition is declared %d times, want once:\n%s", n, res.File)
	}
	var notes []string
	for _, n := range res.Notes {
		notes = append(notes, n.String())
	}
	if want := `tool "a": inputSchema at /$defs/unused: "$defs" not written`; len(notes) != 2 || !strings.HasPrefix(notes[0], want) {
		t.Errorf("notes %q, want the unused definition of each tool, first %q", notes, want)
	}
	_, err = Write([]Tool{tool("a", same), tool("b", `{"type":"object","properties":{"city":{"type":"integer"}}}`)}, Options{Server: "s"})
	var problems Errors
	if !errors.As(err, &problems) || !strings.Contains(err.Error(), `two types would both be Go type SAddress: definition "address" and a different definition of the same name in another schema`) {
		t.Errorf("two different definitions of one name: error %v", err)
	}
}

// TestWriteSideBySide writes two servers with alike tools (server-github
// and server-gitlab's push_files) as two toolsets: the names their files
// declare are disjoint, so both compile in one design package.
func TestWriteSideBySide(t *testing.T) {
	list := []Tool{{Name: "push_files", InputSchema: json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"}}}}}}`)}}
	names := map[string]string{}
	for _, server := range []string{"github", "gitlab"} {
		res, err := Write(list, Options{Server: server})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Names {
			if other, dup := names[n]; dup {
				t.Errorf("%s and %s both declare %s", other, server, n)
			}
			names[n] = server
		}
	}
	if names["GithubPushFilesArgsFilesItem"] != "github" || names["GitlabPushFilesArgsFilesItem"] != "gitlab" {
		t.Errorf("declared names %v", names)
	}
}

// TestWritePartial leaves out a tool with refused parts (Partial) and a
// skipped tool (Skip), each listed with its reasons in a comment block.
func TestWritePartial(t *testing.T) {
	list := []Tool{
		{Name: "good", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)},
		{Name: "bad", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"not":{}},"b":{"type":"array","uniqueItems":true}}}`)},
		{Name: "skipped", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	res, err := Write(list, Options{Server: "s", Partial: true, Skip: []string{"skipped"}})
	if err != nil {
		t.Fatal(err)
	}
	file := string(res.File)
	for _, want := range []string{
		`Tool("good", "", func() {`,
		`// Tools of MCP server "s" not declared here (mcp diff lists them as undeclared):`,
		`//   - "bad": inputSchema at /properties/a/not: keyword "not" has no DSL counterpart` + "\n",
		`//     inputSchema at /properties/b/uniqueItems: uniqueItems: the DSL has no word for unique elements` + "\n",
		`//   - "skipped": --skip-tools` + "\n",
	} {
		if !strings.Contains(file, want) {
			t.Errorf("the file holds no %q:\n%s", want, file)
		}
	}
	if strings.Contains(file, `Tool("bad"`) || strings.Contains(file, `Tool("skipped"`) || len(res.Omitted) != 2 {
		t.Errorf("left-out tools declared, or omitted %v:\n%s", res.Omitted, file)
	}
}
