package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type lookupArgs struct {
	ID    string `json:"id"`
	Limit int    `json:"limit,omitempty"`
}

func mustCompile(t testing.TB, raw string) *Schema {
	t.Helper()
	s, err := CompileSchema([]byte(raw))
	if err != nil {
		t.Fatalf("CompileSchema: %v", err)
	}
	return s
}

func TestCompileSchemaRejects(t *testing.T) {
	cases := []struct {
		name string
		raw  string
		is   error
		want string
	}{
		{"malformed", `{"type":`, ErrInvalidJSON, "schema"},
		{"bad keyword value", `{"type":"object","minProperties":"two"}`, ErrInvalidSchema, "minProperties"},
		{"unknown type", `{"type":"objekt"}`, ErrInvalidSchema, "/type"},
		{"external ref", `{"$ref":"file:///etc/passwd"}`, ErrInvalidSchema, "file:///etc/passwd"},
		{"remote ref", `{"$ref":"https://example.com/s.json"}`, ErrInvalidSchema, "https://example.com/s.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CompileSchema([]byte(tc.raw))
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CompileSchema(%s) error = %v, want %v containing %q", tc.raw, err, tc.is, tc.want)
			}
		})
	}
}

func TestCompileSchemaAccepts(t *testing.T) {
	cases := []struct {
		name, schema, valid, invalid string
	}{
		{"draft 2020-12 default", `{"type":"array","prefixItems":[{"type":"string"}]}`, `["a",1]`, `[1]`},
		{"draft-07 declared", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":1}`, `{"n":"1"}`},
		{"internal ref", `{"type":"object","$defs":{"id":{"type":"string"}},"properties":{"id":{"$ref":"#/$defs/id"}}}`, `{"id":"a"}`, `{"id":1}`},
		{"recursive ref", `{"type":"array","items":{"$ref":"#"}}`, `[[[]]]`, `[[1]]`},
		{"date format asserted", `{"type":"string","format":"date"}`, `"2026-11-30"`, `"November"`},
		{"date-time format asserted", `{"type":"string","format":"date-time"}`, `"2026-11-30T10:00:00Z"`, `"2026-11-30"`},
		{"email format asserted", `{"type":"string","format":"email"}`, `"ops@example.com"`, `"ops at example"`},
		{"uuid format asserted", `{"type":"string","format":"uuid"}`, `"5f0c6f5e-3c2a-4d59-9a7e-0f6f2b1d9c11"`, `"not-a-uuid"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			if err := s.Validate([]byte(tc.valid)); err != nil {
				t.Fatalf("Validate(%s): %v", tc.valid, err)
			}
			if err := s.Validate([]byte(tc.invalid)); !errors.Is(err, ErrPayloadInvalid) {
				t.Fatalf("Validate(%s) = %v, want ErrPayloadInvalid", tc.invalid, err)
			}
			if string(s.Raw()) != tc.schema {
				t.Fatalf("Raw() = %s, want the schema as given", s.Raw())
			}
		})
	}
}

func TestTypedCodecDecode(t *testing.T) {
	codec := NewTypedCodec[lookupArgs](mustCompile(t, lookupPayload))
	cases := []struct {
		name       string
		in         string
		want       lookupArgs
		violations []Violation
		errPart    string
	}{
		{name: "valid", in: `{"id":"r1","limit":5}`, want: lookupArgs{ID: "r1", Limit: 5}},
		{name: "valid minimal", in: `{"id":"r1"}`, want: lookupArgs{ID: "r1"}},
		{name: "missing required", in: `{"limit":5}`, violations: []Violation{{Location: "", Keyword: "required", Message: "missing property 'id'"}}},
		{name: "wrong type and range", in: `{"id":7,"limit":500}`, violations: []Violation{
			{Location: "/id", Keyword: "type", Message: "got number, want string"},
			{Location: "/limit", Keyword: "maximum", Message: "maximum: got 500, want 100"},
		}},
		{name: "extra property", in: `{"id":"r1","x":true}`, violations: []Violation{{Location: "", Keyword: "additionalProperties", Message: "additional properties 'x' not allowed"}}},
		{name: "fractional integer", in: `{"id":"r1","limit":1.5}`, violations: []Violation{{Location: "/limit", Keyword: "type", Message: "got number, want integer"}}},
		{name: "malformed", in: `{"id":`, errPart: "invalid JSON"},
		{name: "duplicate key", in: `{"id":1,"id":"r1"}`, errPart: `duplicate object key "id"`},
		{name: "trailing data", in: `{"id":"r1"} {}`, errPart: "invalid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := codec.DecodeValue([]byte(tc.in))
			switch {
			case tc.violations != nil:
				var verr *ValidationError
				if !errors.As(err, &verr) || !errors.Is(err, ErrPayloadInvalid) {
					t.Fatalf("DecodeValue(%s) error = %v, want *ValidationError", tc.in, err)
				}
				if diff := cmp.Diff(tc.violations, verr.Violations); diff != "" {
					t.Fatalf("violations (-want +got):\n%s", diff)
				}
			case tc.errPart != "":
				if !errors.Is(err, ErrPayloadInvalid) || !strings.Contains(err.Error(), tc.errPart) {
					t.Fatalf("DecodeValue(%s) error = %v, want ErrPayloadInvalid containing %q", tc.in, err, tc.errPart)
				}
			default:
				if err != nil {
					t.Fatalf("DecodeValue(%s): %v", tc.in, err)
				}
				if got != tc.want {
					t.Fatalf("DecodeValue(%s) = %+v, want %+v", tc.in, got, tc.want)
				}
			}
		})
	}
}

func TestTypedCodecEncode(t *testing.T) {
	codec := NewTypedCodec[lookupArgs](mustCompile(t, lookupPayload))
	got, err := codec.EncodeValue(lookupArgs{ID: "r1", Limit: 3})
	if err != nil || string(got) != `{"id":"r1","limit":3}` {
		t.Fatalf("EncodeValue = %s, %v", got, err)
	}
	if _, err := codec.EncodeValue(lookupArgs{}); !errors.Is(err, ErrPayloadInvalid) {
		t.Fatalf("EncodeValue of an empty id: err = %v, want ErrPayloadInvalid (minLength)", err)
	}
	var c Codec = codec
	if got, err := c.Encode(&lookupArgs{ID: "r2"}); err != nil || string(got) != `{"id":"r2"}` {
		t.Fatalf("Encode(*T) = %s, %v", got, err)
	}
	if _, err := c.Encode("r1"); err == nil || !strings.Contains(err.Error(), "got string, want tools.lookupArgs") {
		t.Fatalf("Encode(string): err = %v", err)
	}
	v, err := c.Decode([]byte(`{"id":"r3"}`))
	if err != nil || v.(lookupArgs).ID != "r3" {
		t.Fatalf("Decode = %#v, %v", v, err)
	}
}

func TestTypedCodecRejectsFieldsTheTypeLacks(t *testing.T) {
	open := NewTypedCodec[lookupArgs](mustCompile(t, `{"type":"object"}`))
	_, err := open.DecodeValue([]byte(`{"id":"r1","extra":1}`))
	if !errors.Is(err, ErrPayloadInvalid) || !strings.Contains(err.Error(), `unknown field "extra"`) {
		t.Fatalf("err = %v, want unknown field error", err)
	}
}

func TestRawCodec(t *testing.T) {
	codec := NewRawCodec(mustCompile(t, lookupPayload))
	in := []byte(`{ "id" : "r1" }`)
	v, err := codec.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.(json.RawMessage); string(got) != string(in) {
		t.Fatalf("Decode = %s, want the input unchanged", got)
	}
	in[3] = 'X' // the decoded value must not alias the input
	if got := v.(json.RawMessage); string(got) != `{ "id" : "r1" }` {
		t.Fatalf("decoded value aliases the input: %s", got)
	}
	if _, err := codec.Decode([]byte(`{"id":""}`)); !errors.Is(err, ErrPayloadInvalid) {
		t.Fatalf("Decode of an empty id: err = %v", err)
	}
	for _, v := range []any{json.RawMessage(`{"id":"a"}`), []byte(`{"id":"a"}`), map[string]any{"id": "a"}} {
		if got, err := codec.Encode(v); err != nil || !json.Valid(got) {
			t.Fatalf("Encode(%T) = %s, %v", v, got, err)
		}
	}
	if _, err := codec.Encode(map[string]any{"id": 1}); !errors.Is(err, ErrPayloadInvalid) {
		t.Fatalf("Encode of an invalid value: err = %v", err)
	}
}

func TestSchemaConcurrentUse(t *testing.T) {
	codec := NewTypedCodec[lookupArgs](mustCompile(t, lookupPayload))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			in := `{"id":"r1"}`
			if i%2 == 1 {
				in = `{"id":1}`
			}
			_, err := codec.DecodeValue([]byte(in))
			if (err == nil) != (i%2 == 0) {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent decode: unexpected result %v", err)
	}
}

func BenchmarkTypedCodecDecode(b *testing.B) {
	codec := NewTypedCodec[lookupArgs](mustCompile(b, lookupPayload))
	in := []byte(`{"id":"r1","limit":5}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.DecodeValue(in); err != nil {
			b.Fatal(err)
		}
	}
}
