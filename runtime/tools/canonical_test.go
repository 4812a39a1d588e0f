package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
)

func TestCanonicalize(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"sorted keys", `{"b":1,"a":2,"c":{"z":null,"y":[3,2,1]}}`, `{"a":2,"b":1,"c":{"y":[3,2,1],"z":null}}`},
		{"whitespace", " {\n\t\"a\" : [ true , false ] } \r\n", `{"a":[true,false]}`},
		{"byte order of keys", `{"é":1,"z":2,"Z":3,"":4}`, `{"":4,"Z":3,"z":2,"é":1}`},
		{"empty containers", `{"a":{},"b":[]}`, `{"a":{},"b":[]}`},
		{"integer", `100`, `100`},
		{"trailing fraction zeros", `1.500`, `1.5`},
		{"one forms", `[1, 1.0, 10e-1, 0.1e1, 1E0]`, `[1,1,1,1,1]`},
		{"zero forms", `[0, -0, 0.0, 0e5, -0.0e-3]`, `[0,0,0,0,0]`},
		{"negative", `-12.50`, `-12.5`},
		{"small", `0.000125`, `0.000125`},
		{"tiny", `0.0000001`, `1e-7`},
		{"large plain", `1e20`, `100000000000000000000`},
		{"large exponent", `1e21`, `1e+21`},
		{"exact digits", `12345678901234567890123`, `1.2345678901234567890123e+22`},
		{"no float rounding", `0.1000000000000000055511151231257827`, `0.1000000000000000055511151231257827`},
		{"escapes", `"a\"b\\c\/d\u00e9\n\u0001\t"`, `"a\"b\\c/dé\n\u0001\t"`},
		{"surrogate pair", `"\ud83d\ude00"`, `"😀"`},
		{"html kept", `"<a&b>"`, `"<a&b>"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tc.in))
			if err != nil {
				t.Fatalf("Canonicalize(%s): %v", tc.in, err)
			}
			if string(got) != tc.want {
				t.Fatalf("Canonicalize(%s) = %s, want %s", tc.in, got, tc.want)
			}
			again, err := Canonicalize(got)
			if err != nil || !bytes.Equal(again, got) {
				t.Fatalf("canonical form is not a fixed point: %s -> %s (%v)", got, again, err)
			}
		})
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"empty", ``, "unexpected end of input"},
		{"duplicate key", `{"a":1,"a":2}`, `duplicate object key "a"`},
		{"trailing data", `{} {}`, "unexpected data after the top-level value"},
		{"trailing comma", `[1,]`, "unexpected character ']'"},
		{"leading zero", `01`, "unexpected data after the top-level value"},
		{"bare dot", `1.`, "no digits after '.'"},
		{"bare exponent", `1e`, "no digits in its exponent"},
		{"huge exponent", `1e99999999999`, "exponent out of range"},
		{"lone high surrogate", `"\ud83d"`, "unpaired surrogate"},
		{"lone low surrogate", `"\ude00"`, "unpaired surrogate"},
		{"invalid utf8", "\"\xff\"", "invalid UTF-8"},
		{"raw control", "\"a\nb\"", "control character"},
		{"bad escape", `"\x"`, `invalid escape \x`},
		{"bad literal", `tru`, "unexpected character 't'"},
		{"unterminated", `{"a":"b`, "unterminated string"},
		{"deep", strings.Repeat("[", jsonscan.MaxDepth+1), "nesting deeper"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tc.in))
			if err == nil {
				t.Fatalf("Canonicalize(%q) = %s, want error", tc.in, got)
			}
			if !errors.Is(err, ErrInvalidJSON) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Canonicalize(%q) error = %v, want ErrInvalidJSON containing %q", tc.in, err, tc.want)
			}
		})
	}
}

// FuzzCanonicalize checks that the canonicalizer never panics, accepts only
// valid JSON, preserves the value, and is idempotent.
func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1.50,-0,1e21,"x\u00e9"]}`, `null`, `"\ud83d\ude00"`, `1E-7`, `{"a":{"b":{}}}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Canonicalize(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		again, err := Canonicalize(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", data, out, again, err)
		}
		var before, after any
		if err := decodeExact(data, &before); err != nil {
			t.Fatalf("decode input: %v", err)
		}
		if err := decodeExact(out, &after); err != nil {
			t.Fatalf("decode output %q: %v", out, err)
		}
		if !sameJSON(before, after) {
			t.Fatalf("value changed: %q -> %q", data, out)
		}
	})
}

func decodeExact(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// sameJSON compares decoded JSON values, numbers by exact decimal value.
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if !sameJSON(v, bm[k]) {
				return false
			}
		}
		return true
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], bs[i]) {
				return false
			}
		}
		return true
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		// 512 bits hold every short decimal exactly enough that equal
		// values compare equal; huge exponents saturate to ±Inf or ±0.
		x, _, errx := big.ParseFloat(string(a), 10, 512, big.ToNearestEven)
		y, _, erry := big.ParseFloat(string(bn), 10, 512, big.ToNearestEven)
		if errx != nil || erry != nil {
			return (errx != nil) == (erry != nil)
		}
		return x.Cmp(y) == 0
	default:
		return a == b
	}
}

func BenchmarkCanonicalize(b *testing.B) {
	doc := []byte(`{"type":"object","properties":{"id":{"type":"string","description":"Record id"},"limit":{"type":"integer","minimum":1,"maximum":100},"tags":{"type":"array","items":{"type":"string"}}},"required":["id"],"additionalProperties":false}`)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Canonicalize(doc); err != nil {
			b.Fatal(err)
		}
	}
}
