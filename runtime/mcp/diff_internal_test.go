package mcp

import (
	"bytes"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFirstDifference(t *testing.T) {
	cases := []struct {
		name, a, b  string
		pointer     string
		left, right string
		same        bool
	}{
		{name: "equal after reordering", a: `{"a":1,"b":[1,2]}`, b: `{ "b": [1, 2], "a": 1.0 }`, same: true},
		{name: "scalar differs", a: `{"a":{"b":"x"}}`, b: `{"a":{"b":"y"}}`, pointer: "/a/b", left: `"x"`, right: `"y"`},
		{name: "first key in order", a: `{"z":1,"b":1}`, b: `{"z":2,"b":2}`, pointer: "/b", left: "1", right: "2"},
		{name: "type differs", a: `{"a":[1]}`, b: `{"a":{"0":1}}`, pointer: "/a", left: "[1]", right: `{"0":1}`},
		{name: "array shorter", a: `[1]`, b: `[1,2]`, pointer: "/1", left: "absent", right: "2"},
		{name: "escaped key", a: `{"a/b~":1}`, b: `{"a/b~":2}`, pointer: "/a~1b~0", left: "1", right: "2"},
		{name: "top level", a: `1`, b: `2`, pointer: "", left: "1", right: "2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := firstDifference([]byte(tc.a), []byte(tc.b))
			if err != nil {
				t.Fatal(err)
			}
			if tc.same {
				if d != nil {
					t.Fatalf("difference %+v between canonically equal documents", *d)
				}
				return
			}
			if d == nil {
				t.Fatal("no difference found")
			}
			if d.pointer != tc.pointer || d.left != tc.left || d.right != tc.right {
				t.Errorf("difference = %+v, want {%s %s %s}", *d, tc.pointer, tc.left, tc.right)
			}
		})
	}
	if _, err := firstDifference([]byte(`{"a":1,"a":2}`), []byte(`{}`)); err == nil {
		t.Error("duplicate keys accepted")
	}
}

func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int
	}{
		{"x", 0},
		{map[string]any{}, 1},
		{map[string]any{"a": []any{map[string]any{"b": 1}}}, 3},
	} {
		if got := depth(tc.v); got != tc.want {
			t.Errorf("depth(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// FuzzFirstDifference checks, for any two documents a server or a design
// could send, that a difference is found exactly when their canonical forms
// differ.
func FuzzFirstDifference(f *testing.F) {
	f.Add([]byte(`{"type":"object"}`), []byte(`{"type": "object"}`))
	f.Add([]byte(`{"a":[1,{"b":2}]}`), []byte(`{"a":[1,{"b":3}]}`))
	f.Add([]byte(`[1e2]`), []byte(`[100]`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ca, errA := tools.Canonicalize(a)
		cb, errB := tools.Canonicalize(b)
		d, err := firstDifference(a, b)
		if errA != nil || errB != nil {
			if err == nil {
				t.Fatal("invalid JSON accepted")
			}
			return
		}
		if err != nil {
			t.Fatalf("valid JSON refused: %v", err)
		}
		if (d == nil) != bytes.Equal(ca, cb) {
			t.Fatalf("difference %v for canonical forms %s and %s", d, ca, cb)
		}
		if self, err := firstDifference(a, a); err != nil || self != nil {
			t.Fatalf("a document differs from itself: %v %v", self, err)
		}
	})
}

// FuzzRecord converts any inputSchema a server could send: the result is
// an error or a tool record that passes the runtime's own checks.
func FuzzRecord(f *testing.F) {
	f.Add("echo", []byte(`{"type":"object","properties":{"text":{"type":"string"}}}`))
	f.Add("github.create_issue", []byte(`{"type":"object"}`))
	f.Add("", []byte(`{"type":"string"}`))
	f.Add("a/b", []byte(`[[[[[[{}]]]]]]`))
	limits, _ := Limits{MaxSchemaDepth: 8, MaxSchemaBytes: 4096}.withDefaults()
	s := &Session{server: "fuzz", limits: limits}
	f.Fuzz(func(t *testing.T, name string, schema []byte) {
		v, err := decodeNumbers(schema)
		if err != nil {
			return
		}
		rec, _, err := s.record("fx", &sdk.Tool{Name: name, InputSchema: v})
		if err != nil {
			return
		}
		if err := rec.Validate(); err != nil {
			t.Fatalf("record %q passed conversion and fails validation: %v", rec.Name, err)
		}
		if rec.Name.Toolset() != "fx" || rec.Name.Tool() != ToolName(name) {
			t.Fatalf("record of %q is named %q", name, rec.Name)
		}
	})
}
