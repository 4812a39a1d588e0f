package toolsearch

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
)

// readTexts reads a parameters schema and returns what it emits, one
// "field:text" a line, and the error.
func readTexts(params string) ([]string, error) {
	var got []string
	r := schemaReader{emit: func(f Field, s string) { got = append(got, f.String()+":"+s) }}
	err := r.read(params)
	return got, err
}

func TestSchemaReaderEmits(t *testing.T) {
	tests := []struct {
		name   string
		params string
		want   []string
	}{
		{"empty", ``, nil},
		{"null", ` null `, nil},
		{"boolean", `true`, nil},
		{"no keywords", `{"type":"object","required":["a"],"minimum":1.5e3}`, nil},
		{"root texts", `{"title":"T","description":"D"}`, []string{"param_description:T", "param_description:D"}},
		{"texts that are not strings", `{"title":1,"description":{"x":"y"},"enum":"z"}`, nil},
		{"enum strings only", `{"enum":["a",1,null,["b"],"c"]}`, []string{"param_description:a", "param_description:c"}},
		{"properties", `{"properties":{"id":{"description":"Id"},"n":true}}`,
			[]string{"param_name:id", "param_description:Id", "param_name:n"}},
		{"properties not an object", `{"properties":["a"]}`, nil},
		{"nested", `{"items":{"properties":{"a":{"anyOf":[{"properties":{"b":{}}},false]}}}}`,
			[]string{"param_name:a", "param_name:b"}},
		{"maps of subschemas", `{"$defs":{"d":{"title":"T"}},"patternProperties":{"^x":{"properties":{"p":{}}}}}`,
			[]string{"param_description:T", "param_name:p"}},
		{"keyword names as property names", `{"properties":{"title":{"title":"Title"},"enum":{}}}`,
			[]string{"param_name:title", "param_description:Title", "param_name:enum"}},
		{"texts under unread keywords", `{"examples":[{"title":"no"}],"const":{"description":"no"}}`, nil},
		{"escapes", `{"description":"a\"b\\c\/d\n\u00e9\ud83d\ude00\ud800x","properties":{"k\u0065y":{}}}`,
			[]string{"param_description:a\"b\\c/d\né\U0001F600\uFFFDx", "param_name:key"}},
		{"invalid UTF-8 kept", "{\"title\":\"a\xffb\"}", []string{"param_description:a\xffb"}},
		{"white space", " {\n\t\"title\" : \"T\" ,\r\n\"enum\" : [ \"e\" ] } ", []string{"param_description:T", "param_description:e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readTexts(tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("read(%q) emits %q, want %q", tt.params, got, tt.want)
			}
		})
	}
}

func TestSchemaReaderRejects(t *testing.T) {
	tests := []struct {
		name   string
		params string
		want   string // in the error
	}{
		{"only space", "  ", "end of input"},
		{"truncated", `{"type":`, "end of input"},
		{"trailing data", `{} {}`, "after the top-level value"},
		{"trailing comma", `{"a":1,}`, "object key"},
		{"missing colon", `{"a" 1}`, "':'"},
		{"missing comma", `[1 2]`, "',' or ']'"},
		{"unquoted key", `{a:1}`, "object key"},
		{"single quotes", `{'a':1}`, "object key"},
		{"duplicate key", `{"type":"object","type":"string"}`, `duplicate object key "type"`},
		{"duplicate key spelled with an escape", `{"a":1,"\u0061":2}`, `duplicate object key "a"`},
		{"duplicate property", `{"properties":{"id":{},"id":{}}}`, `duplicate object key "id"`},
		{"duplicate key in a skipped value", `{"examples":[{"x":1,"x":1}]}`, `duplicate object key "x"`},
		{"duplicate key in a large object", `{"k1":0,"k2":0,"k3":0,"k4":0,"k5":0,"k6":0,"k7":0,"k8":0,"k9":0,"k10":0,` +
			`"k11":0,"k12":0,"k13":0,"k14":0,"k15":0,"k16":0,"k17":0,"k18":0,"k5":0}`, `duplicate object key "k5"`},
		{"control character", "{\"title\":\"a\nb\"}", "control character"},
		{"invalid escape", `{"title":"\x41"}`, "invalid escape"},
		{"short unicode escape", `{"title":"\u12"}`, `\u escape`},
		{"unterminated string", `{"title":"abc`, "unterminated string"},
		{"leading zero", `{"maximum":01}`, "',' or '}'"},
		{"bare minus", `{"maximum":-}`, "invalid number"},
		{"no fraction digits", `{"maximum":1.}`, "no digits after '.'"},
		{"no exponent digits", `{"maximum":1e+}`, "exponent"},
		{"bad literal", `{"default":nul}`, "unexpected character 'n'"},
		{"exponent out of range", `{"maximum":1e1000000001}`, "exponent out of range"},
		{"string root", `"object"`, "got a string"},
		{"array root", `["a"]`, "got an array"},
		{"number root", `3`, "got a number"},
		{"too deep", strings.Repeat("[", jsonscan.MaxDepth+1) + strings.Repeat("]", jsonscan.MaxDepth+1), "nesting deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readTexts(tt.params)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("read(%q) error = %v, want one containing %q", tt.params, err, tt.want)
			}
		})
	}
	deep := `{"items":` + strings.Repeat("[", jsonscan.MaxDepth-1) + strings.Repeat("]", jsonscan.MaxDepth-1) + `}`
	if _, err := readTexts(deep); err != nil {
		t.Errorf("nesting of %d: %v", jsonscan.MaxDepth, err)
	}
}

// TestCountMatchesReference checks Count against the reference model on
// the dev catalog and on the test catalog.
func TestCountMatchesReference(t *testing.T) {
	dev, _ := loadDevSet(t)
	docs := append(testCatalog(), dev...)
	for _, doc := range docs {
		got, err := Count(doc)
		if err != nil {
			t.Fatalf("Count(%q): %v", doc.Name, err)
		}
		want, err := referenceCount(doc)
		if err != nil {
			t.Fatalf("referenceCount(%q): %v", doc.Name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Count(%q) = %+v, want %+v", doc.Name, got, want)
		}
	}
}

// hasDuplicateKeys reports whether some object of the valid JSON data has a
// key twice, walking encoding/json's tokens.
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys     map[string]bool
		isObject bool
		wantKey  bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := len(stack) - 1
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top >= 0 && stack[top].isObject {
					stack[top].wantKey = true
				}
				stack = append(stack, frame{keys: map[string]bool{}, isObject: v == '{', wantKey: true})
			default:
				stack = stack[:top]
			}
			continue
		case string:
			if top >= 0 && stack[top].isObject && stack[top].wantKey {
				if stack[top].keys[v] {
					return true
				}
				stack[top].keys[v] = true
				stack[top].wantKey = false
				continue
			}
		}
		if top >= 0 && stack[top].isObject {
			stack[top].wantKey = true
		}
	}
}
