package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// keyedItem and keyedArgs exercise the shapes a generated argument type
// can have: nested structs, pointers, slices, maps, embedded structs,
// recursion and types that decode themselves.
type keyedItem struct {
	SKU string `json:"sku"`
}

type keyedBase struct {
	Tenant string `json:"tenant"`
	Shadow string `json:"id"` // shadowed by keyedArgs.ID
}

type keyedArgs struct {
	keyedBase
	ID       string               `json:"id"`
	Owner    *keyedItem           `json:"owner,omitempty"`
	Items    []keyedItem          `json:"items,omitempty"`
	ByName   map[string]keyedItem `json:"by_name,omitempty"`
	Next     *keyedArgs           `json:"next,omitempty"`
	When     time.Time            `json:"when,omitzero"`
	Raw      json.RawMessage      `json:"raw,omitempty"`
	Any      any                  `json:"any,omitempty"`
	Untagged string
	Skipped  string `json:"-"`
	hidden   string // unexported: takes no key
}

func TestTypedCodecExactKeys(t *testing.T) {
	codec := NewTypedCodec[keyedArgs](mustCompile(t, `{"type":"object","properties":{"id":{"type":"string","pattern":"^a+$"}}}`))
	cases := []struct {
		name string
		in   string
		want string // in the error; empty when the value decodes
	}{
		{"exact names", `{"id":"a","tenant":"t","owner":{"sku":"x"},"items":[{"sku":"y"}],"by_name":{"K":{"sku":"z"}},` +
			`"next":{"id":"aa","next":{"id":"aaa"}},"when":"2026-01-02T03:04:05Z","raw":{"ID":1},"any":{"ID":1},"Untagged":"u"}`, ""},
		{"case variant of a validated name", `{"id":"a","ID":"../etc"}`, `unknown field "ID" at the top level`},
		{"case variant alone", `{"Id":"zzz"}`, `unknown field "Id" at the top level`},
		{"case variant of a promoted name", `{"Tenant":"t"}`, `unknown field "Tenant" at the top level`},
		{"field name of a tagged field", `{"Owner":{"sku":"x"}}`, `unknown field "Owner" at the top level`},
		{"case variant of an untagged field", `{"untagged":"u"}`, `unknown field "untagged" at the top level`},
		{"skipped field", `{"Skipped":"s"}`, `unknown field "Skipped" at the top level`},
		{"unexported field", `{"hidden":"h"}`, `unknown field "hidden" at the top level`},
		{"in a pointer", `{"owner":{"SKU":"x"}}`, `unknown field "SKU" at "/owner"`},
		{"in a slice", `{"items":[{"sku":"x"},{"Sku":"y"}]}`, `unknown field "Sku" at "/items/1"`},
		{"in a map value", `{"by_name":{"a/b":{"SKU":"x"}}}`, `unknown field "SKU" at "/by_name/a~1b"`},
		{"in a recursion", `{"next":{"next":{"ID":"x"}}}`, `unknown field "ID" at "/next/next"`},
		{"first key reported", `{"Z":1,"B":2,"id":"a"}`, `unknown field "Z" at the top level`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := codec.DecodeValue([]byte(tc.in))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("DecodeValue(%s): %v", tc.in, err)
				}
				if got.ID != "a" || got.Next.Next.ID != "aaa" || got.ByName["K"].SKU != "z" || got.Untagged != "u" {
					t.Errorf("DecodeValue(%s) = %+v", tc.in, got)
				}
				return
			}
			if !errors.Is(err, ErrPayloadInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("DecodeValue(%s) = %+v, %v; want ErrPayloadInvalid mentioning %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestTypedCodecExactKeysScalar checks types without struct fields, which
// decode whatever keys their values hold.
func TestTypedCodecExactKeysScalar(t *testing.T) {
	anyCodec := NewTypedCodec[map[string]any](mustCompile(t, `{"type":"object"}`))
	if _, err := anyCodec.DecodeValue([]byte(`{"ID":1,"id":2}`)); err != nil {
		t.Errorf("map[string]any: %v", err)
	}
	rawCodec := NewTypedCodec[json.RawMessage](mustCompile(t, `{"type":"object"}`))
	if _, err := rawCodec.DecodeValue([]byte(`{"ID":1,"id":2}`)); err != nil {
		t.Errorf("json.RawMessage: %v", err)
	}
}
