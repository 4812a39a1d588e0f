package discovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// referenceShape is the shape check as the plain composition of the
// checks it stands for: tools.Canonicalize, a decode of the root and
// json.Compact.
func referenceShape(raw []byte) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("missing")
	}
	if _, err := tools.Canonicalize(raw); err != nil {
		return nil, err
	}
	var root map[string]json.RawMessage
	if err := json.Unmarshal(raw, &root); err != nil || root == nil {
		return nil, errors.New("not a JSON object")
	}
	var typ string
	if t, ok := root["type"]; !ok {
		return nil, errors.New("no type")
	} else if err := json.Unmarshal(t, &typ); err != nil || typ != "object" {
		return nil, fmt.Errorf("type %s", t)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func TestCompactParameters(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string // compact form, or the text of the error
		ok   bool
	}{
		{"compact", `{"type":"object"}`, `{"type":"object"}`, true},
		{"white space", " {\n \"type\" : \"object\",\t\"properties\" : { \"a b\" : { } } }\r\n", `{"type":"object","properties":{"a b":{}}}`, true},
		{"strings kept as written", `{"type":"\u006fbject","description":"a\"b \u00e9\ud83d\ude00 \/"}`, `{"type":"\u006fbject","description":"a\"b \u00e9\ud83d\ude00 \/"}`, true},
		{"numbers kept as written", `{"type":"object","maximum":1.50E+3,"minimum":-0.0,"x":0e99999999}`, `{"type":"object","maximum":1.50E+3,"minimum":-0.0,"x":0e99999999}`, true},
		{"missing", " \n", "missing", false},
		{"not an object", `[{"type":"object"}]`, "not a JSON object", false},
		{"null", `null`, "not a JSON object", false},
		{"no type", `{"properties":{}}`, `no "type"`, false},
		{"other type", `{"type": [ "object" ]}`, `root "type" is [ "object" ]`, false},
		{"type of a nested object only", `{"properties":{"type":"object"}}`, `no "type"`, false},
		{"duplicate key", `{"type":"object","type":"object"}`, "duplicate", false},
		{"duplicate escaped key", `{"type":"object","p":{"a":1,"\u0061":2}}`, "duplicate", false},
		{"invalid UTF-8", "{\"type\":\"object\",\"d\":\"\xff\"}", "UTF-8", false},
		{"lone surrogate", `{"type":"object","d":"\ud800"}`, "surrogate", false},
		{"exponent out of range", `{"type":"object","m":1e1000000000}`, "exponent", false},
		{"long exponent", `{"type":"object","m":0e00000000000000000000000000001}`, `{"type":"object","m":0e00000000000000000000000000001}`, true},
		{"trailing data", `{"type":"object"} x`, "after the top-level value", false},
		{"too deep", `{"type":"object","x":` + strings.Repeat("[", jsonscan.MaxDepth) + strings.Repeat("]", jsonscan.MaxDepth) + `}`, "nesting", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compactParameters(nil, json.RawMessage(tt.raw))
			if !tt.ok {
				if !errors.Is(err, ErrInvalidParameters) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("compactParameters(%q) error = %v, want ErrInvalidParameters with %q", tt.raw, err, tt.want)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("compactParameters(%q) = %s, %v; want %s", tt.raw, got, err, tt.want)
			}
			if ref, err := referenceShape([]byte(tt.raw)); err != nil || !bytes.Equal(ref, got) {
				t.Fatalf("reference = %s, %v", ref, err)
			}
		})
	}
}

// FuzzCompactParameters checks the one-pass shape check against the
// composition of the checks it stands for: the same inputs pass, with the
// same compact bytes.
func FuzzCompactParameters(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, ` { "type" : "object" , "a" : [1, 2.5e-3, "x\n"] } `,
		`{"type":"\u006fbject","k":{"a":1,"a":2}}`, `{"type":"object","n":-0.000e-1000000001}`, "\"\\ud83d\\ude00\"", `[]`, `{"type":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := compactParameters(nil, raw)
		want, refErr := referenceShape(raw)
		if (err == nil) != (refErr == nil) {
			t.Fatalf("compactParameters(%q) error = %v, reference error = %v", raw, err, refErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("compactParameters(%q) = %s, reference %s", raw, got, want)
		}
		if err != nil && !errors.Is(err, ErrInvalidParameters) {
			t.Fatalf("compactParameters(%q) error %v is not ErrInvalidParameters", raw, err)
		}
	})
}
