package contract

import (
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestConfirm(t *testing.T) {
	cases := []struct {
		name     string
		template string
		fields   []tools.FieldMeta
		payload  string
		want     string
		wantErr  string
	}{
		{"property", `Delete {{ .id }}?`, nil, `{"id":"r1"}`, "Delete r1?", ""},
		{"json of a value", `Tags {{ json .tags }}`, nil, `{"tags":["a",1.50]}`, `Tags ["a",1.50]`, ""},
		{"exact number", `Pay {{ .amount }}`, nil, `{"amount":12.50}`, "Pay 12.50", ""},
		{"optional absent", `Limit {{ json (index . "limit") }}`, nil, `{}`, "Limit null", ""},
		{"required absent", `Delete {{ .id }}`, nil, `{}`, "", `map has no entry for key "id"`},
		{"sensitive masked", `Pay {{ .card }} for {{ .who.name }}`, []tools.FieldMeta{{Path: "/card", Sensitive: true}, {Path: "/who/name"}}, `{"card":"4111","who":{"name":"Ann"}}`, "Pay " + Masked + " for Ann", ""},
		{"masking keeps other values", `{{ .note }} {{ .n }} {{ .card }}`, []tools.FieldMeta{{Path: "/card", Sensitive: true}}, `{"note":"<b>&","n":1.50,"card":"4111"}`, "<b>& 1.50 " + Masked, ""},
		{"sensitive nested in array", `{{ json .cards }}`, []tools.FieldMeta{{Path: "/cards/1", Sensitive: true}}, `{"cards":["a","b"]}`, `["a","` + Masked + `"]`, ""},
		{"sensitive absent", `{{ index . "card" }}`, []tools.FieldMeta{{Path: "/card", Sensitive: true}, {Path: "/x/y/z", Sensitive: true}}, `{"x":1}`, "<no value>", ""},
		{"escaped pointer", `{{ index . "a/b" }}`, []tools.FieldMeta{{Path: "/a~1b", Sensitive: true}}, `{"a/b":"s"}`, Masked, ""},
		{"malformed payload", `{{ .id }}`, nil, `{"id":`, "", "invalid JSON"},
		{"trailing payload", `{{ .id }}`, nil, `{"id":1} 2`, "", "data after the JSON value"},
		{"bad template", `{{ .id `, nil, `{}`, "", "confirmation template"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := &tools.ToolSpec{Name: "records.delete", Contract: &tools.Contract{
				Fields:       tc.fields,
				Confirmation: &tools.Confirmation{Title: "Delete", Template: tc.template},
			}}
			p, err := Confirm(spec, []byte(tc.payload))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Confirm error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Text != tc.want || p.Title != "Delete" || p.Tool != "records.delete" {
				t.Fatalf("Confirm = %+v, want text %q", p, tc.want)
			}
		})
	}
}

func TestConfirmNone(t *testing.T) {
	for _, spec := range []*tools.ToolSpec{nil, {Name: "a.b"}, {Name: "a.b", Contract: &tools.Contract{}}} {
		p, err := Confirm(spec, []byte(`not json`))
		if p != nil || err != nil {
			t.Fatalf("Confirm(%+v) = %+v, %v; want nil, nil", spec, p, err)
		}
	}
	spec := &tools.ToolSpec{Name: "a.b", Contract: &tools.Contract{Confirmation: &tools.Confirmation{Template: "x"}}}
	if _, err := Confirm(spec, []byte("{")); !errors.Is(err, tools.ErrInvalidJSON) {
		t.Fatalf("Confirm malformed = %v, want tools.ErrInvalidJSON", err)
	}
}
