package tools

import (
	"errors"
	"strings"
	"testing"
)

func TestParseIdent(t *testing.T) {
	cases := []struct {
		in      string
		toolset string
		tool    string
		wantErr string
	}{
		{in: "records.lookup", toolset: "records", tool: "lookup"},
		{in: "_a.b-2", toolset: "_a", tool: "b-2"},
		{in: "Records_V2.find-All", toolset: "Records_V2", tool: "find-All"},
		{in: "records", wantErr: `want "toolset.tool"`},
		{in: "", wantErr: `want "toolset.tool"`},
		{in: ".lookup", wantErr: "toolset name is empty"},
		{in: "records.", wantErr: "tool name is empty"},
		{in: "records.a.b", wantErr: `has byte '.' at offset 1`},
		{in: "1records.lookup", wantErr: `starts with '1'`},
		{in: "records.-x", wantErr: `starts with '-'`},
		{in: "rec ords.lookup", wantErr: `has byte ' ' at offset 3`},
		{in: "récords.lookup", wantErr: "has byte"},
		{in: strings.Repeat("a", 64) + "." + strings.Repeat("b", 64), toolset: strings.Repeat("a", 64), tool: strings.Repeat("b", 64)},
		{in: "a." + strings.Repeat("b", 65), wantErr: "is longer than 64 bytes"},
		{in: strings.Repeat("a", 65) + ".b", wantErr: "is longer than 64 bytes"},
		{in: "a." + strings.Repeat("b", MaxIdentLength), wantErr: "longer than 129 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			id, err := ParseIdent(tc.in)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("ParseIdent(%q) = %q, want error containing %q", tc.in, id, tc.wantErr)
				}
				if !errors.Is(err, ErrInvalidIdent) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseIdent(%q) error = %v, want ErrInvalidIdent containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseIdent(%q): %v", tc.in, err)
			}
			if id.Toolset() != tc.toolset || id.Tool() != tc.tool {
				t.Fatalf("ParseIdent(%q) = (%q, %q), want (%q, %q)", tc.in, id.Toolset(), id.Tool(), tc.toolset, tc.tool)
			}
			joined, err := NewIdent(tc.toolset, tc.tool)
			if err != nil || joined != id {
				t.Fatalf("NewIdent(%q, %q) = %q, %v; want %q", tc.toolset, tc.tool, joined, err, id)
			}
		})
	}
}
