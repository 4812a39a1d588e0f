package gateway

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/google/go-cmp/cmp"
)

// declaredNotes is a design's declaration of the notes server's
// create_note, narrower than the server's schema (a text of at most 5
// characters).
func declaredNotes() *tools.ToolsetSchema {
	return &tools.ToolsetSchema{Name: "notes", Tools: []tools.ToolSchema{{
		Name:        "notes.create_note",
		Description: "Create a note (declared).",
		Payload:     json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","maxLength":5}},"required":["text"]}`),
	}}}
}

// TestDesignUpstreams checks the upstream fields a design sets: every tool
// immediate, and a declaration that chooses the tools served and their
// schemas.
func TestDesignUpstreams(t *testing.T) {
	ups := weatherServers()
	ups[0].ImmediateAll = true
	ups[1].Declared = declaredNotes()
	g := newGateway(t, Options{}, ups...)
	c := connect(t, g)
	if diff := cmp.Diff([]string{"tool_search", "weather_get_alerts", "weather_get_forecast"}, sorted(c.names(t))); diff != "" {
		t.Fatalf("first tools/list (-want +got):\n%s", diff)
	}
	ans := c.search(t, map[string]any{"query": "note"})
	if diff := cmp.Diff([]string{"notes_create_note"}, foundNames(ans)); diff != "" {
		t.Fatalf("search found (-want +got):\n%s\nthe undeclared delete_note must not be served", diff)
	}
	if ans.Tools[0].Description != "Create a note (declared)." || !strings.Contains(string(ans.Tools[0].InputSchema), "maxLength") {
		t.Errorf("found tool %+v, want the declared description and schema", ans.Tools[0])
	}
	if out, isErr := c.call(t, "notes_create_note", map[string]any{"text": "too long"}); !isErr || !strings.Contains(out, "invalid arguments") {
		t.Errorf("call against the declared schema = %q (error %v), want invalid arguments", out, isErr)
	}
	if out, isErr := c.call(t, "notes_create_note", map[string]any{"text": "ok"}); isErr || out != `notes/create_note {"text":"ok"}` {
		t.Errorf("call = %q (error %v)", out, isErr)
	}
	if out, isErr := c.call(t, "notes_delete_note", map[string]any{"text": "x"}); !isErr || !strings.Contains(out, `unknown tool "notes_delete_note"`) {
		t.Errorf("call of an undeclared tool = %q (error %v), want refused", out, isErr)
	}
}

// TestDeclarationMismatch checks that a server whose list differs from the
// declaration is unavailable, with the difference named.
func TestDeclarationMismatch(t *testing.T) {
	ups := weatherServers()
	decl := declaredNotes()
	decl.Tools[0].Payload = json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)
	ups[1].Declared = decl
	c := connect(t, newGateway(t, Options{}, ups...))
	ans := c.search(t, map[string]any{"query": "note"})
	if len(ans.Tools) != 0 || len(ans.Unavailable) != 1 || ans.Unavailable[0].Server != "notes" || !strings.Contains(ans.Unavailable[0].Error, "create_note") {
		t.Fatalf("search = %+v, want notes unavailable naming create_note", ans)
	}
}

// TestDesignUpstreamRefused checks New's refusals of the design fields.
func TestDesignUpstreamRefused(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Upstream)
		want string
	}{
		{"immediate next to all", func(u *Upstream) { u.ImmediateAll, u.Immediate = true, []string{"create_note"} }, "immediate tools are listed next to ImmediateAll"},
		{"declaration of another toolset", func(u *Upstream) { d := declaredNotes(); d.Name = "other"; u.Declared = d }, `names toolset "other"`},
		{"undeclared immediate tool", func(u *Upstream) { u.Declared, u.Immediate = declaredNotes(), []string{"delete_note"} }, `tool "delete_note" is not declared`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ups := weatherServers()
			tc.edit(&ups[1])
			_, err := New(ups, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }
