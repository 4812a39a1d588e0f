package tools

import (
	"errors"
	"strings"
	"testing"
)

func TestConfirmationRender(t *testing.T) {
	cases := []struct {
		name     string
		template string
		payload  string
		want     string
		wantErr  string
	}{
		{"property", `Delete {{ .id }}?`, `{"id":"r1"}`, "Delete r1?", ""},
		{"json of a value", `Tags: {{ json .tags }}`, `{"tags":["a","<b>"]}`, `Tags: ["a","\u003cb\u003e"]`, ""},
		{"exact number", `Amount {{ .amount }}`, `{"amount":12.50}`, "Amount 12.50", ""},
		{"optional property absent", `Limit {{ json (index . "limit") }}`, `{}`, "Limit null", ""},
		{"required property absent", `Delete {{ .id }}`, `{}`, "", `map has no entry for key "id"`},
		{"malformed payload", `Delete {{ .id }}`, `{"id":`, "", "invalid JSON"},
		{"trailing payload", `Delete {{ .id }}`, `{"id":"a"} 1`, "", "data after the JSON value"},
		{"bad template", `Delete {{ .id `, `{}`, "", "unclosed action"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&Confirmation{Template: tc.template}).Render([]byte(tc.payload))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Render error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("Render = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := (&Confirmation{Template: "x"}).Render([]byte("{")); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("malformed payload: err = %v, want ErrInvalidJSON", err)
	}
}
