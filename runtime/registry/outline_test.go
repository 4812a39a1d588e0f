package registry

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// errText is an error's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestOutlinePublish(t *testing.T) {
	limits := SchemaLimits{MaxDepth: 4, MaxBytes: 200, MaxWork: 40}
	obj := `{"type":"object"}`
	deep := `{"type":"object","properties":{"a":{"items":{"items":{}}}}}` // 5 levels
	tool := func(name, payload string) string {
		return `{"name":"` + name + `","description":"d","payload":` + payload + `}`
	}
	body := func(toolset string, tools ...string) string {
		return `{"toolset":{"name":"` + toolset + `","tools":[` + strings.Join(tools, ",") + `]},"revision":"r1","endpoint":"https://h/x"}`
	}
	cases := []struct {
		name, body, toolset, limit string // limit: the error wanted, "" none
		unreadable                 bool
	}{
		{name: "within", body: body("records", tool("records.a", obj)), toolset: "records"},
		{name: "name after the tools", body: `{"toolset":{"tools":[` + tool("records.a", deep) + `],"name":"records"}}`, toolset: "records",
			limit: `toolset "records": tool "records.a": payload schema nests deeper than 4 levels`},
		{name: "escaped name and keys", body: `{"t\u006folset":{"n\u0061me":"rec\u006frds","tools":[]}}`, toolset: "records"},
		{name: "no name", body: `{"toolset":{"tools":[]}}`, toolset: ""},
		{name: "no toolset", body: `{"revision":"r"}`, toolset: ""},
		{name: "deep payload", body: body("records", tool("records.a", obj), tool("records.b", deep)), toolset: "records",
			limit: `toolset "records": tool "records.b": payload schema nests deeper than 4 levels, the limit per schema (MaxDepth)`},
		{name: "deep result", body: body("records", `{"name":"records.a","result":`+deep+`,"payload":`+obj+`}`), toolset: "records",
			limit: `tool "records.a": result schema nests deeper`},
		{name: "large payload", body: body("records", tool("records.a", `{"type":"object","description":"`+strings.Repeat("x", 200)+`"}`)), toolset: "records",
			limit: `payload schema is 234 bytes, over the limit of 200 bytes per schema (MaxBytes)`},
		{name: "work", body: body("records", tool("records.a", `{"type":"object","enum":[`+strings.Repeat(`1,`, 40)+`1]}`)), toolset: "records",
			limit: `schemas up to tool "records.a" hold more than 40 JSON values`},
		{name: "first limit only", body: body("records", tool("records.a", deep), tool("records.b", `{"type":"object","description":"`+strings.Repeat("x", 200)+`"}`)), toolset: "records",
			limit: `tool "records.a": payload schema nests deeper`},
		{name: "deeper than any decoder", body: body("records", tool("records.a", strings.Repeat(`[`, 100_000)+strings.Repeat(`]`, 100_000))), toolset: "records",
			limit: `payload schema is 200000 bytes`},
		{name: "strings hold brackets", body: body("records", tool("records.a", `{"type":"object","description":"]}]}\"[{"}`)), toolset: "records"},
		{name: "white space", body: " {\n\"toolset\" : { \"name\" : \"records\" , \"tools\" : [ ] } }\n", toolset: "records"},
		{name: "unpaired surrogate escape", body: `{"toolset":{"name":"rec\ud800","tools":[]}}`, toolset: "rec\uFFFD"},
		{name: "number beyond the scanner's exponent limit", body: body("records", tool("records.a", `{"type":"object","maximum":1e99999999999}`)), toolset: "records"},
		{name: "unread value deeper than any decoder", body: `{"revision":` + strings.Repeat(`[{"a":`, 50_000) + `0` + strings.Repeat(`}]`, 50_000) + `,"toolset":{"name":"records"}}`, toolset: "records"},
		{name: "array", body: `[1]`, unreadable: true},
		{name: "missing comma in a schema", body: body("records", tool("records.a", `{"type":"object" "x":1}`)), unreadable: true},
		{name: "mismatched bracket in a schema", body: body("records", tool("records.a", `{"type":["object"}}`)), unreadable: true},
		{name: "bad number in an unread value", body: `{"revision":01,"toolset":{"name":"records"}}`, unreadable: true},
		{name: "bad literal in a schema", body: body("records", tool("records.a", `{"type":"object","x":nul}`)), unreadable: true},
		{name: "control character in a key", body: "{\"tool\tset\":{}}", unreadable: true},
		{name: "invalid escape in the name", body: `{"toolset":{"name":"rec\x"}}`, unreadable: true},
		{name: "unterminated", body: `{"toolset":{"name":"records","tools":[{"payload":{`, unreadable: true},
		{name: "unterminated string", body: `{"toolset":{"name":"rec`, unreadable: true},
		{name: "trailing data", body: `{"toolset":{}} {}`, unreadable: true},
		{name: "missing colon", body: `{"toolset" {}}`, unreadable: true},
		{name: "empty", body: ``, unreadable: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := OutlinePublish([]byte(tc.body), limits)
			if tc.unreadable {
				if !errors.Is(err, errOutline) {
					t.Fatalf("OutlinePublish = %+v, %v; want it unreadable", out, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.Toolset != tc.toolset {
				t.Errorf("toolset %q, want %q", out.Toolset, tc.toolset)
			}
			switch got := errText(out.Limit); {
			case tc.limit == "" && got != "":
				t.Errorf("limit %s, want none", got)
			case tc.limit != "" && (!strings.Contains(got, tc.limit) || !errors.Is(out.Limit, &Error{Code: CodeSchemaLimit})):
				t.Errorf("limit %q, want schema_limit with %q", got, tc.limit)
			}
		})
	}
}

// FuzzOutlinePublish: the outline never panics, and of every body the
// strict decoder accepts it reads the toolset name that was decoded and
// the limit error SchemaLimits.Check gives the decoded toolset.
func FuzzOutlinePublish(f *testing.F) {
	for _, s := range []string{
		`{"toolset":{"name":"records","tools":[{"name":"records.a","description":"d","payload":{"type":"object"}}]},"revision":"r1","endpoint":"https://h/x"}`,
		`{"toolset":{"tools":[{"name":"a.b","payload":{"a":{"b":{"c":{"d":1}}}},"result":{}}],"name":"a"}}`,
		`{"toolset":{"name":"a\u0062","tools":[{"payload":"x","p\u0061yload":"y"}]}}`,
		`{"toolset":{"name":"a","tools":[{"payload":[1,2,3,4,5,6,7,8,9,10]},{"result":null}]}}`,
		`{"toolset":{"name":"a","name":"b","tools":[]}}`,
		`{"toolset":null}`,
		` {"toolset" : {"name":"a" } } `,
		`{"toolset":{"name":"a\ud800","tools":[{"name":"a.b","payload":{"maximum":1e99999999999,"x":[true,false,null,-0.5E-3]}}]}}`,
		`{"toolset":{"name":"a","tools":[{"payload":{"a":[1 2]}}]}}`,
		`{"revision":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"toolset":{"name":"a"}}`,
	} {
		f.Add([]byte(s))
	}
	limits := SchemaLimits{MaxDepth: 3, MaxBytes: 40, MaxWork: 12}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, outErr := OutlinePublish(data, limits)
		var req PublishRequest
		if err := decodeStrict(data, &req); err != nil {
			return
		}
		if outErr != nil {
			t.Fatalf("the decoder accepts %q, the outline does not: %v", data, outErr)
		}
		if out.Toolset != req.Toolset.Name {
			t.Fatalf("outline read toolset %q, the decoder %q", out.Toolset, req.Toolset.Name)
		}
		if got, want := errText(out.Limit), errText(limits.Check(&req.Toolset)); got != want {
			t.Fatalf("outline limit %q, Check %q", got, want)
		}
	})
}

func ExampleOutlinePublish() {
	body := `{"toolset":{"name":"records","tools":[{"name":"records.a","description":"d","payload":{"type":"object","properties":{"a":{"items":{"items":{}}}}}}]}}`
	out, err := OutlinePublish([]byte(body), SchemaLimits{MaxDepth: 4, MaxBytes: 1 << 10, MaxWork: 100})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Toolset)
	fmt.Println(out.Limit)
	// Output:
	// records
	// registry: schema_limit: toolset "records": tool "records.a": payload schema nests deeper than 4 levels, the limit per schema (MaxDepth)
}
