package gonames

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestJSONTag checks each tag against encoding/json's reading of it: a
// struct with the tag marshals the member under the property name.
func TestJSONTag(t *testing.T) {
	for _, tc := range []struct {
		name     string
		required bool
		tag, err string
	}{
		{"path", true, "path", ""},
		{"path", false, "path,omitzero", ""},
		{"-", true, "-,", ""},
		{"-", false, "-,omitzero", ""},
		{"a b.c/d", true, "a b.c/d", ""},
		{"n,string", true, "", `property name "n,string" holds ','`},
		{"path,omitempty", false, "", `holds ','`},
		{`q"x`, true, "", `holds '"'`},
		{"", true, "", "the empty property name"},
	} {
		tag, err := JSONTag(tc.name, tc.required)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("JSONTag(%q) error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || tag != tc.tag {
			t.Errorf("JSONTag(%q, %v) = %q, %v, want %q", tc.name, tc.required, tag, err, tc.tag)
			continue
		}
		field := reflect.StructField{Name: "F", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(`json:"` + tag + `"`)}
		v := reflect.New(reflect.StructOf([]reflect.StructField{field})).Elem()
		v.Field(0).SetString("x")
		b, err := jsonMarshal(v.Interface())
		if err != nil || string(b) != `{"`+tc.name+`":"x"}` {
			t.Errorf("tag %q marshals %s, %v", tag, b, err)
		}
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
