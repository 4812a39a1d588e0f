package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Name string `json:"name"`
}

type base struct {
	ID string `json:"id"`
}

type record struct {
	base
	Tool    string            `json:"tool"`
	Count   int               `json:"count,omitempty"`
	Inner   *inner            `json:"inner,omitempty"`
	List    []inner           `json:"list,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	ByName  map[string]inner  `json:"by_name,omitempty"`
	Raw     json.RawMessage   `json:"raw,omitempty"`
	Any     any               `json:"any,omitempty"`
	Self    selfDecoder       `json:"self,omitempty"`
	Skipped string            `json:"-"`
	Plain   string
}

// selfDecoder decodes itself, loosely: the walker must leave its keys to it
// and still refuse duplicates.
type selfDecoder struct{ keys int }

func (s *selfDecoder) UnmarshalJSON(data []byte) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	s.keys = len(m)
	return nil
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want error  // nil: accepted
		part string // in the error text
	}{
		{"valid", `{"id":"a","tool":"t","count":2,"inner":{"name":"n"},"list":[{"name":"x"}],"labels":{"a":"1","A":"2"},"raw":{"Tool":1,"tool":2},"any":{"K":1,"k":2},"self":{"Whatever":1},"Plain":"p"}`, nil, ""},
		{"case variant of a field", `{"tool":"a","Tool":"b"}`, ErrUnknownField, `"Tool" at the top level: the field is "tool"`},
		{"case variant alone", `{"TOOL":"b"}`, ErrUnknownField, `the field is "tool"`},
		{"case variant of an optional field", `{"tool":"a","Count":1}`, ErrUnknownField, `"Count"`},
		{"case variant in a nested struct", `{"inner":{"Name":"n"}}`, ErrUnknownField, `at "/inner"`},
		{"case variant in a slice element", `{"list":[{"name":"a"},{"NAME":"b"}]}`, ErrUnknownField, `at "/list/1"`},
		{"case variant in a map value struct", `{"by_name":{"x":{"Name":"n"}}}`, ErrUnknownField, `at "/by_name/x"`},
		{"case variant of a promoted field", `{"ID":"a"}`, ErrUnknownField, `the field is "id"`},
		{"unknown field", `{"tools":[]}`, ErrUnknownField, `unknown field "tools" at the top level`},
		{"skipped field", `{"Skipped":"x"}`, ErrUnknownField, `"Skipped"`},
		{"duplicate field", `{"tool":"a","tool":"b"}`, ErrDuplicateKey, `"tool" at the top level`},
		{"duplicate map key", `{"labels":{"a":"1","a":"2"}}`, ErrDuplicateKey, `at "/labels"`},
		{"duplicate key in raw JSON", `{"raw":{"x":{"y":1,"y":2}}}`, ErrDuplicateKey, `at "/raw/x"`},
		{"duplicate key in a self-decoding value", `{"self":{"a":1,"a":2}}`, ErrDuplicateKey, `at "/self"`},
		{"escaped key in a pointer", `{"labels":{"a/b":"1"},"by_name":{"a/b":{"x":1}}}`, ErrUnknownField, `at "/by_name/a~1b"`},
		{"trailing data", `{"tool":"a"} {}`, ErrTrailingData, ""},
		{"invalid UTF-8", "{\"tool\":\"\xff\"}", ErrInvalidUTF8, ""},
		{"malformed", `{"tool":`, ErrSyntax, ""},
		{"unclosed", `{"tool":"a"`, ErrSyntax, ""},
		{"empty", ``, ErrSyntax, ""},
		{"wrong type", `{"count":"x"}`, nil, "cannot unmarshal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v record
			err := Decode([]byte(tc.doc), &v)
			switch {
			case tc.want == nil && tc.part == "":
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
			case err == nil:
				t.Fatalf("Decode accepted %s", tc.doc)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("Decode error %v, want %v", err, tc.want)
			case !strings.Contains(err.Error(), tc.part):
				t.Fatalf("Decode error %q does not contain %q", err, tc.part)
			}
		})
	}
}

func TestDecodeKeepsValueOnRefusal(t *testing.T) {
	v := record{Tool: "kept"}
	if err := Decode([]byte(`{"tool":"a","Tool":"b"}`), &v); err == nil {
		t.Fatal("Decode accepted a case variant")
	}
	if v.Tool != "kept" {
		t.Fatalf("refused document changed the value: tool %q", v.Tool)
	}
}

func TestDecodeDepth(t *testing.T) {
	for _, tc := range []struct {
		depth int
		want  error
	}{
		{MaxDepth, nil},
		{MaxDepth + 1, ErrTooDeep},
		{MaxDepth * 50, ErrTooDeep},
	} {
		doc := strings.Repeat("[", tc.depth) + strings.Repeat("]", tc.depth)
		var v any
		if err := Check([]byte(doc), reflect.TypeOf(&v)); !errors.Is(err, tc.want) {
			t.Fatalf("depth %d: Check error %v, want %v", tc.depth, err, tc.want)
		}
	}
}

// FuzzDecode: no panic; whatever Decode accepts encoding/json decodes to the
// same value, and holds no key that encoding/json would bind to a field of
// another spelling.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","tool":"t","list":[{"name":"x"}],"labels":{"a":"1"}}`,
		`{"tool":"a","Tool":"b"}`,
		`{"raw":{"x":[1,2,{"y":null}]},"any":[true,false]}`,
		`{"by_name":{"k":{"name":"n"}},"self":{"q":1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v record
		if err := Decode(data, &v); err != nil {
			return
		}
		var loose record
		if err := json.Unmarshal(data, &loose); err != nil {
			t.Fatalf("Decode accepted what encoding/json refuses: %v", err)
		}
		if !reflect.DeepEqual(v, loose) {
			t.Fatalf("strict and loose decodes differ:\n%+v\n%+v", v, loose)
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal(data, &keys) == nil {
			fields := (&walker{fields: map[reflect.Type]map[string]reflect.Type{}}).fieldsOf(reflect.TypeFor[record]())
			for k := range keys {
				if _, ok := fields[k]; !ok {
					t.Fatalf("accepted key %q that is no field's exact name", k)
				}
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	doc := []byte(`{"id":"a","tool":"t","count":2,"inner":{"name":"n"},"list":[{"name":"x"},{"name":"y"}],"labels":{"a":"1","b":"2"},"raw":{"type":"object","properties":{"q":{"type":"string"}}}}`)
	b.ReportAllocs()
	for b.Loop() {
		var v record
		if err := Decode(doc, &v); err != nil {
			b.Fatal(err)
		}
	}
}
