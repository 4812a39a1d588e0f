package discovery

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/google/go-cmp/cmp"
)

var emulated = model.Capabilities{Discovery: model.DiscoveryEmulated, Strict: model.StrictLimits{Supported: true}}

func testCatalog(t testing.TB, names ...string) *Catalog {
	t.Helper()
	entries := make([]Entry, len(names))
	for i, n := range names {
		entries[i] = Entry{Snapshot: snap(n)}
	}
	c, err := NewCatalog(entries, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	return c
}

func newRequest() *model.Request {
	return &model.Request{
		Model:     "m",
		Messages:  discoveredHistory(),
		Tools:     []model.ToolDefinition{appTool("search")},
		Discovery: model.Discovery{Enabled: true, Description: "app"},
	}
}

func TestPrepareAndCheck(t *testing.T) {
	cat := testCatalog(t, "a", "b", "lookup", "z")
	req := newRequest()
	d, err := Prepare(req, emulated, cat)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if got, want := names(req.Tools), []string{"search", ToolName, "b", "a", "lookup"}; !slices.Equal(got, want) {
		t.Errorf("declared %v, want %v", got, want)
	}
	if !slices.Equal(d.Withheld, []string{"c"}) {
		t.Errorf("withheld %v, want [c]", d.Withheld)
	}
	if got := names(req.Discovery.Deferred); !slices.Equal(got, []string{"a", "b", "lookup", "z"}) {
		t.Errorf("deferred %v", got)
	}
	if err := Check(req, emulated); err != nil {
		t.Fatalf("Check of a prepared request: %v", err)
	}
	if _, err := Prepare(req, emulated, cat); err == nil {
		t.Errorf("Prepare accepted a prepared request")
	} else {
		wantRule(t, err, RuleDeclarations, -1, -1)
	}

	// Check never adds what Prepare withheld, and notices tampering.
	tampered := []struct {
		name string
		edit func(r *model.Request)
	}{
		{"discovery tool dropped", func(r *model.Request) { r.Tools = slices.Delete(slices.Clone(r.Tools), 1, 2) }},
		{"discovery turned off", func(r *model.Request) { r.Discovery.Enabled = false; r.Discovery.Deferred = nil }},
		{"withheld tool added", func(r *model.Request) { r.Tools = append(slices.Clone(r.Tools), snap("c").Definition()) }},
		{"order changed", func(r *model.Request) {
			r.Tools = slices.Clone(r.Tools)
			r.Tools[2], r.Tools[3] = r.Tools[3], r.Tools[2]
		}},
		{"stale snapshot", func(r *model.Request) {
			r.Tools = slices.Clone(r.Tools)
			r.Tools[2] = snap("b").Definition()
		}},
		{"own discovery tool", func(r *model.Request) {
			r.Tools = slices.Clone(r.Tools)
			r.Tools[1].Description = "Find tools."
		}},
		{"strictness changed", func(r *model.Request) {
			r.Tools = slices.Clone(r.Tools)
			r.Tools[2].Strict = true
		}},
		{"undiscovered tool", func(r *model.Request) { r.Tools = append(slices.Clone(r.Tools), snap("z").Definition()) }},
	}
	// Withholding one more discovered tool is a choice Check cannot tell
	// from policy; it only ever narrows what is declared.
	narrowed := *req
	narrowed.Tools = req.Tools[:len(req.Tools)-1]
	if err := Check(&narrowed, emulated); err != nil {
		t.Errorf("Check of a request withholding one more tool: %v", err)
	}
	for _, tc := range tampered {
		t.Run(tc.name, func(t *testing.T) {
			r := *req
			tc.edit(&r)
			wantRule(t, Check(&r, emulated), RuleDeclarations, -1, -1)
		})
	}
}

func TestPrepareWithoutCatalog(t *testing.T) {
	req := newRequest()
	req.Discovery.Enabled = false
	req.ResponseFormat = nil
	if _, err := Prepare(req, emulated, nil); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if got, want := names(req.Tools), []string{"search", "b", "a", "c", "lookup"}; !slices.Equal(got, want) {
		t.Errorf("declared %v, want %v", got, want)
	}
	if err := Check(req, emulated); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestPrepareStructuredOutput(t *testing.T) {
	req := newRequest()
	req.Discovery.Enabled = false
	req.ResponseFormat = &model.ResponseFormat{Name: "answer", Schema: json.RawMessage(`{"type":"object"}`)}
	if _, err := Prepare(req, emulated, nil); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if got := names(req.Tools); !slices.Equal(got, []string{"search"}) {
		t.Errorf("structured output declared %v", got)
	}
	if err := Check(req, emulated); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestPrepareErrors(t *testing.T) {
	cat := testCatalog(t, "a", "search")
	cases := []struct {
		name    string
		edit    func(r *model.Request)
		catalog *Catalog
		rule    model.Rule
	}{
		{"forced discovered tool", func(r *model.Request) { r.ToolChoice = model.ToolChoice{Mode: model.ToolChoiceTool, Name: "a"} }, nil, RuleToolChoice},
		{"forced discovery tool", func(r *model.Request) { r.ToolChoice = model.ToolChoice{Mode: model.ToolChoiceTool, Name: ToolName} }, nil, RuleToolChoice},
		{"deferred and catalog", func(r *model.Request) { r.Discovery.Deferred = []model.ToolDefinition{snap("q").Definition()} }, testCatalog(t, "a"), RuleDeferred},
		{"application tool in catalog", func(r *model.Request) {}, cat, RuleDeferred},
		{"deferred without discovery", func(r *model.Request) {
			r.Discovery.Enabled = false
			r.Discovery.Deferred = []model.ToolDefinition{snap("q").Definition()}
		}, nil, RuleDeferred},
		{"deferred name not portable", func(r *model.Request) { r.Discovery.Deferred = []model.ToolDefinition{snap("q.r").Definition()} }, nil, RuleDeferred},
		{"deferred reserved", func(r *model.Request) {
			r.Discovery.Deferred = []model.ToolDefinition{snap("tool_search_tool_regex").Definition()}
		}, nil, RuleReservedName},
		{"deferred twice", func(r *model.Request) {
			r.Discovery.Deferred = []model.ToolDefinition{snap("q").Definition(), snap("q").Definition()}
		}, nil, RuleDeferred},
		{"deferred shadows application tool", func(r *model.Request) {
			r.Discovery.Deferred = []model.ToolDefinition{snap("search").Definition()}
		}, nil, RuleDeferred},
		{"deferred parameters", func(r *model.Request) {
			d := snap("q").Definition()
			d.Parameters = json.RawMessage(`{}`)
			r.Discovery.Deferred = []model.ToolDefinition{d}
		}, nil, RuleParameters},
		{"deferred strict outside the contract", func(r *model.Request) {
			d := snap("q").Definition()
			d.Strict = true
			r.Discovery.Deferred = []model.ToolDefinition{d}
		}, nil, RuleStrictSchema},
		{"invalid history", func(r *model.Request) { r.Messages = append(r.Messages, model.DiscoveryMessage(result("d1"))) }, nil, RuleOrphanResult},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := newRequest()
			tc.edit(req)
			before := *req
			_, err := Prepare(req, emulated, tc.catalog)
			var verr *model.ValidationError
			if !errors.As(err, &verr) || verr.Rule != tc.rule {
				t.Fatalf("Prepare = %v, want rule %s", err, tc.rule)
			}
			if diff := cmp.Diff(before, *req); diff != "" {
				t.Errorf("a failed Prepare changed the request (-before +after):\n%s", diff)
			}
		})
	}
	t.Run("valid deferred list", func(t *testing.T) {
		req := newRequest()
		req.Discovery.Deferred = []model.ToolDefinition{snap("q").Definition()}
		if _, err := Prepare(req, emulated, nil); err != nil {
			t.Fatalf("Prepare: %v", err)
		}
		if err := Check(req, emulated); err != nil {
			t.Fatalf("Check: %v", err)
		}
	})
}

func TestUnsupportedDiscovery(t *testing.T) {
	unsupported := model.Capabilities{}
	req := newRequest()
	if _, err := Prepare(req, unsupported, nil); !errors.Is(err, model.ErrToolSearchUnsupported) {
		t.Errorf("Prepare = %v, want ErrToolSearchUnsupported", err)
	}
	if err := Check(req, unsupported); !errors.Is(err, model.ErrToolSearchUnsupported) {
		t.Errorf("Check = %v, want ErrToolSearchUnsupported", err)
	}
	// Without discovery the same model takes the discovered tools as
	// ordinary tools.
	req.Discovery.Enabled = false
	if _, err := Prepare(req, unsupported, nil); err != nil {
		t.Errorf("Prepare without discovery: %v", err)
	}
}
