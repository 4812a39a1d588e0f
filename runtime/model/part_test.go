package model

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestPartUnmarshalRejects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"unknown kind", `{"kind":"image"}`, `unknown part kind "image"`},
		{"missing kind", `{"text":"hi"}`, `unknown part kind ""`},
		{"unknown field", `{"kind":"text","text":"hi","extra":1}`, `unknown field "extra"`},
		{"unknown nested field", `{"kind":"tool_call","tool_call":{"id":"c","name":"n","args":{}}}`, `unknown field "args"`},
		{"content missing", `{"kind":"tool_call"}`, "tool_call part has no tool_call content"},
		{"content mismatch", `{"kind":"text","text":"a","tool_result":{"call_id":"c","name":"n","content":""}}`, "text part also holds tool_result content"},
		{"two payloads", `{"kind":"discovery_call","discovery_call":{"id":"d","query":"q"},"discovery_result":{"call_id":"d"}}`, "discovery_call part also holds discovery_result content"},
		{"wrong type", `{"kind":"text","text":5}`, "cannot unmarshal number"},
		{"key in another case", `{"kind":"text","text":"a","Text":"b"}`, `unknown field "Text" at the top level: the field is "text"`},
		{"repeated key", `{"kind":"text","text":"a","text":"b"}`, `duplicate object key "text" at the top level`},
		{"nested key in another case", `{"kind":"tool_call","tool_call":{"id":"c","name":"n","Arguments":{}}}`,
			`unknown field "Arguments" at "/tool_call"`},
		{"nested repeated key", `{"kind":"discovery_call","discovery_call":{"id":"d","query":"a","query":"b"}}`,
			`duplicate object key "query" at "/discovery_call"`},
		{"key in another case in a snapshot", `{"kind":"discovery_result","discovery_result":{"call_id":"d","tools":[` +
			`{"name":"a","description":"","parameters":{"type":"object"}},{"name":"b","Name":"c","description":"","parameters":{}}]}}`,
			`unknown field "Name" at "/discovery_result/tools/1"`},
		{"snapshot without parameters", `{"kind":"discovery_result","discovery_result":{"call_id":"d","tools":[{"name":"a","description":""}]}}`,
			`tool snapshot "a" at "/discovery_result/tools/0" has no parameters`},
		{"snapshot with null parameters", `{"kind":"discovery_result","discovery_result":{"call_id":"d","tools":[{"name":"a","description":"","parameters":{}},{"name":"b","description":"","parameters":null}]}}`,
			`tool snapshot "b" at "/discovery_result/tools/1" has no parameters`},
		{"unknown field in a snapshot", `{"kind":"discovery_result","discovery_result":{"call_id":"d","tools":[{"name":"a","description":"","parameters":{},"strict_mode":true}]}}`,
			`unknown field "strict_mode"`},
		{"repeated key in a snapshot", `{"kind":"discovery_result","discovery_result":{"call_id":"d","tools":[{"name":"a","name":"b","description":"","parameters":{}}]}}`,
			`duplicate object key "name" at "/discovery_result/tools/0"`},
		{"list where an object belongs", `{"kind":"tool_call","tool_call":[]}`, `cannot unmarshal array into Go struct field partFields.tool_call`},
		{"not an object", `[]`, "cannot unmarshal array"},
		{"reasoning without content", `{"kind":"reasoning"}`, "reasoning part has no reasoning content"},
		{"unknown reasoning field", `{"kind":"reasoning","reasoning":{"signature":"s"}}`, `unknown field "signature"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var p Part
			err := json.Unmarshal([]byte(tc.in), &p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal(%s) error = %v, want it to contain %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestMessageUnmarshalRejects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"unknown role", `{"role":"developer","parts":[]}`, `unknown role "developer"`},
		{"unknown field", `{"role":"user","parts":[],"name":"x"}`, `unknown field "name"`},
		{"bad part", `{"role":"user","parts":[{"kind":"video"}]}`, `unknown part kind "video"`},
		{"role in another case", `{"role":"user","Role":"system","parts":[]}`, `unknown field "Role" at the top level`},
		{"repeated parts", `{"role":"user","parts":[{"kind":"text","text":"a"}],"parts":[]}`, `duplicate object key "parts"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var m Message
			err := json.Unmarshal([]byte(tc.in), &m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal(%s) error = %v, want it to contain %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestPartMarshalRejectsInconsistentParts(t *testing.T) {
	cases := []struct {
		name string
		part Part
		want string
	}{
		{"kind without content", Part{Kind: PartToolResult}, "tool_result part has no tool_result content"},
		{"extra content", Part{Kind: PartText, Text: "a", ToolCall: &ToolCall{ID: "c"}}, "text part also holds tool_call content"},
		{"zero part", Part{}, `unknown part kind ""`},
		{"snapshot without parameters", DiscoveryResultPart(DiscoveryResult{CallID: "d", Tools: []ToolSnapshot{{Name: "a"}}}), `tool snapshot "a" has no parameters`},
		{"snapshot with null parameters", DiscoveryResultPart(DiscoveryResult{CallID: "d", Tools: []ToolSnapshot{{Name: "a", Parameters: json.RawMessage("null")}}}), `tool snapshot "a" has no parameters`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := json.Marshal(tc.part)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Marshal error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestPartJSONShape(t *testing.T) {
	cases := []struct {
		part Part
		want string
	}{
		{TextPart("hi"), `{"kind":"text","text":"hi"}`},
		{ToolCallPart(ToolCall{ID: "c1", Name: "n", Arguments: json.RawMessage(`{"a":1}`)}), `{"kind":"tool_call","tool_call":{"id":"c1","name":"n","arguments":{"a":1}}}`},
		{DiscoveryCallPart(DiscoveryCall{ID: "d1", Names: []string{"a"}}), `{"kind":"discovery_call","discovery_call":{"id":"d1","names":["a"]}}`},
		{DiscoveryResultPart(DiscoveryResult{CallID: "d1", Note: "none"}), `{"kind":"discovery_result","discovery_result":{"call_id":"d1","note":"none"}}`},
		{DiscoveryCallPart(DiscoveryCall{ID: "h1", Hosted: true}), `{"kind":"discovery_call","discovery_call":{"id":"h1","hosted":true}}`},
		{ReasoningPart(Reasoning{Text: "why", Redacted: true}, "p", []byte(`{"type":"thinking"}`)), `{"kind":"reasoning","reasoning":{"text":"why","redacted":true},"meta":{"p":{"type":"thinking"}}}`},
	}
	for _, tc := range cases {
		got, err := json.Marshal(tc.part)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("Marshal(%s) = %s, want %s", tc.part.Kind, got, tc.want)
		}
	}
}

// FuzzPartJSON checks that decoding never panics and that every accepted
// part re-encodes and decodes to an equal value with stable bytes.
func FuzzPartJSON(f *testing.F) {
	for _, p := range conversation()[2].Parts {
		b, _ := json.Marshal(p)
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"tool_call","tool_call":{"id":"c","name":"n","malformed_arguments":"{"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Part
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		checkRoundTrip(t, &p, new(Part))
	})
}

// FuzzMessageJSON is FuzzPartJSON for whole messages.
func FuzzMessageJSON(f *testing.F) {
	for _, m := range conversation() {
		b, _ := json.Marshal(m)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Message
		if err := json.Unmarshal(data, &m); err != nil {
			return
		}
		_ = m.Validate() // must not panic on any decoded message
		checkRoundTrip(t, &m, new(Message))
	})
}

// checkRoundTrip checks that v, decoded from fuzz input, encodes to JSON
// that decodes to an equal value (raw JSON compared after compaction, empty
// and absent collections alike) and that re-encoding is byte-stable.
func checkRoundTrip[T any](t *testing.T, v, fresh *T) {
	t.Helper()
	first, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("re-encode accepted value %#v: %v", v, err)
	}
	if err := json.Unmarshal(first, fresh); err != nil {
		t.Fatalf("decode re-encoded %s: %v", first, err)
	}
	if diff := cmp.Diff(v, fresh, equateEmptyCollections, cmp.Comparer(sameRawJSON)); diff != "" {
		t.Fatalf("round trip changed the value (-decoded +re-decoded):\n%s", diff)
	}
	second, err := json.Marshal(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(second) {
		t.Fatalf("encoding not stable:\n%s\n%s", first, second)
	}
}

// equateEmptyCollections equates empty and absent slices and maps other
// than raw JSON, which sameRawJSON compares.
var equateEmptyCollections = cmp.FilterPath(func(p cmp.Path) bool {
	return p.Last().Type() != reflect.TypeFor[json.RawMessage]()
}, cmpopts.EquateEmpty())

func sameRawJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	// encoding/json escapes <, > and & when it re-encodes raw JSON.
	return bytes.Equal(htmlEscape(ca.Bytes()), htmlEscape(cb.Bytes()))
}

func htmlEscape(b []byte) []byte {
	var out bytes.Buffer
	json.HTMLEscape(&out, b)
	return out.Bytes()
}
