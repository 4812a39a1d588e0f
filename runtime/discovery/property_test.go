package discovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/google/go-cmp/cmp"
)

// historyGen builds random conversations over a fixed universe of names:
// tools in the permitted catalog, tools outside it, the application's
// tools, a reserved name and a name that is not portable. Discovery results
// are either the catalog's answers or forged ones, as a tampered or
// reloaded history may hold; results are sometimes dropped or repeated.
type historyGen struct {
	rng      *rand.Rand
	catalog  *Catalog
	universe []string
	words    []string
}

func newHistoryGen(t testing.TB, seed uint64) *historyGen {
	permitted := []string{"mail_send", "mail_draft", "records_lookup", "records_search", "calendar_create", "strict_tool"}
	entries := make([]Entry, len(permitted))
	for i, n := range permitted {
		entries[i] = Entry{Snapshot: model.ToolSnapshot{Name: n, Description: "tool " + n + " handles " + n[:4], Parameters: json.RawMessage(objectSchema)}}
	}
	entries[len(entries)-1].Snapshot = strictSnap("strict_tool")
	c, err := NewCatalog(entries, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	return &historyGen{
		rng:      rand.New(rand.NewPCG(seed, 0x5eed)),
		catalog:  c,
		universe: append(permitted, "admin_purge", "secret_read", "search", "lookup", ToolName, "bad.name", ""),
		words:    []string{"mail", "send", "records", "calendar", "purge", "secret", "lookup", "", "tool"},
	}
}

func (g *historyGen) name() string { return g.universe[g.rng.IntN(len(g.universe))] }

// snapshot forges a snapshot: usually of a valid name inside or outside
// the catalog, sometimes of a name or schema that no history may hold.
func (g *historyGen) snapshot() model.ToolSnapshot {
	valid := g.universe[:len(g.universe)-3] // the last three are reserved or not portable
	name := valid[g.rng.IntN(len(valid))]
	if g.rng.IntN(10) == 0 {
		name = g.name()
	}
	s := snap(name)
	switch g.rng.IntN(12) {
	case 0:
		s.Parameters = json.RawMessage(strictSchema)
		s.Strict = new(true)
	case 1:
		s.Strict = new(true) // outside the strict contract
	case 2:
		s.Description = fmt.Sprintf("version %d", g.rng.IntN(3))
	}
	return s
}

func (g *historyGen) call(id string) model.DiscoveryCall {
	c := model.DiscoveryCall{ID: id}
	for range g.rng.IntN(3) {
		c.Names = append(c.Names, g.name())
	}
	if g.rng.IntN(2) == 0 || len(c.Names) == 0 {
		c.Query = g.words[g.rng.IntN(len(g.words))] + " " + g.words[g.rng.IntN(len(g.words))]
	}
	return c
}

func (g *historyGen) history(t testing.TB) []model.Message {
	var msgs []model.Message
	if g.rng.IntN(2) == 0 {
		msgs = append(msgs, model.SystemMessage("sys"))
	}
	for turn := range 1 + g.rng.IntN(5) {
		msgs = append(msgs, model.UserMessage("go"))
		var parts []model.Part
		var calls []model.DiscoveryCall
		var toolCalls []model.ToolCall
		for k := range g.rng.IntN(4) {
			id := fmt.Sprintf("t%d-%d", turn, k)
			if g.rng.IntN(3) == 0 {
				tc := model.ToolCall{ID: id, Name: g.name(), Arguments: json.RawMessage(`{}`)}
				if tc.Name == "" {
					tc.Name = "x"
				}
				toolCalls = append(toolCalls, tc)
				parts = append(parts, model.ToolCallPart(tc))
				continue
			}
			c := g.call(id)
			calls = append(calls, c)
			parts = append(parts, model.DiscoveryCallPart(c))
		}
		parts = append(parts, model.TextPart("step"))
		msgs = append(msgs, model.AssistantMessage(parts...))
		var results []model.DiscoveryResult
		for _, c := range calls {
			switch g.rng.IntN(8) {
			case 0: // dropped
				continue
			case 1, 2: // forged
				r := model.DiscoveryResult{CallID: c.ID}
				for range g.rng.IntN(4) {
					r.Tools = append(r.Tools, g.snapshot())
				}
				if len(r.Tools) == 0 {
					r.Note = "nothing"
				}
				results = append(results, r)
			default:
				r, err := g.catalog.Answer(c, 1+g.rng.IntN(4))
				if err != nil {
					t.Fatalf("Answer(%+v): %v", c, err)
				}
				results = append(results, r)
			}
			if g.rng.IntN(20) == 0 { // repeated
				results = append(results, results[len(results)-1])
			}
		}
		if len(results) > 0 {
			msgs = append(msgs, model.DiscoveryMessage(results...))
		}
		if len(toolCalls) > 0 {
			var trs []model.ToolResult
			for _, tc := range toolCalls {
				trs = append(trs, model.ToolResult{CallID: tc.ID, Name: tc.Name, Content: "ok"})
			}
			msgs = append(msgs, model.ToolMessage(trs...))
		}
	}
	return msgs
}

// TestPropertyPermittedCatalog checks, over random histories, that no tool
// outside the permitted catalog is ever declared, deferred, snapshotted or
// answered, that Check accepts what Prepare made, and that a history
// reloaded from JSON declares the same bytes.
func TestPropertyPermittedCatalog(t *testing.T) {
	const runs = 400
	g := newHistoryGen(t, 1)
	app := map[string]bool{"search": true, "lookup": true}
	var prepared, rejected, withheld int
	for run := range runs {
		history := g.history(t)
		caps := model.Capabilities{Discovery: model.DiscoveryEmulated, Strict: model.StrictLimits{Supported: true, MaxTools: g.rng.IntN(3)}}
		req := &model.Request{
			Messages:  history,
			Tools:     []model.ToolDefinition{appTool("search"), appTool("lookup")},
			Discovery: model.Discovery{Enabled: g.rng.IntN(3) > 0},
		}
		d, err := Prepare(req, caps, g.catalog)
		if err != nil {
			if !errors.Is(err, model.ErrInvalidRequest) {
				t.Fatalf("run %d: Prepare = %v, want a validation error", run, err)
			}
			rejected++
			continue
		}
		prepared++
		if len(d.Withheld) > 0 {
			withheld++
		}
		for _, d := range req.Tools {
			switch d.Kind {
			case model.ToolApplication:
				if !app[d.Name] {
					t.Fatalf("run %d: declared %q as an application tool", run, d.Name)
				}
			case model.ToolDiscovery:
				if d.Name != ToolName || !req.Discovery.Enabled {
					t.Fatalf("run %d: declared the discovery tool %q with discovery %v", run, d.Name, req.Discovery.Enabled)
				}
			case model.ToolDiscovered:
				if !g.catalog.Permits(d.Name) || app[d.Name] {
					t.Fatalf("run %d: declared %q, outside the permitted catalog", run, d.Name)
				}
			default:
				t.Fatalf("run %d: declared %q of kind %q", run, d.Name, d.Kind)
			}
		}
		for _, d := range req.Discovery.Deferred {
			if !g.catalog.Permits(d.Name) {
				t.Fatalf("run %d: deferred %q, outside the permitted catalog", run, d.Name)
			}
		}
		if err := Check(req, caps); err != nil {
			t.Fatalf("run %d: Check of a prepared request: %v", run, err)
		}

		data, err := json.Marshal(history)
		if err != nil {
			t.Fatalf("run %d: marshal: %v", run, err)
		}
		var reloaded []model.Message
		if err := json.Unmarshal(data, &reloaded); err != nil {
			t.Fatalf("run %d: unmarshal: %v", run, err)
		}
		again := &model.Request{Messages: reloaded, Tools: []model.ToolDefinition{appTool("search"), appTool("lookup")}, Discovery: model.Discovery{Enabled: req.Discovery.Enabled}}
		if _, err := Prepare(again, caps, g.catalog); err != nil {
			t.Fatalf("run %d: Prepare after reloading: %v", run, err)
		}
		want, _ := json.Marshal(req.Tools)
		got, _ := json.Marshal(again.Tools)
		if !bytes.Equal(got, want) {
			t.Fatalf("run %d: declarations changed after reloading:\n%s", run, cmp.Diff(string(want), string(got)))
		}
	}
	for run := range runs {
		c := g.call(fmt.Sprintf("q%d", run))
		r, err := g.catalog.Answer(c, g.rng.IntN(4))
		if err != nil {
			t.Fatalf("Answer(%+v): %v", c, err)
		}
		for _, s := range r.Tools {
			want, ok := g.catalog.Snapshot(s.Name)
			if !ok {
				t.Fatalf("answered %q, outside the permitted catalog", s.Name)
			}
			if diff := cmp.Diff(want, s); diff != "" {
				t.Fatalf("answered a snapshot of %q that is not the catalog's (-want +got):\n%s", s.Name, diff)
			}
		}
	}
	// The generator must exercise both outcomes to prove anything.
	if prepared < runs/10 || rejected < runs/10 || withheld < runs/40 {
		t.Fatalf("generator is lopsided: %d prepared, %d rejected, %d withholding tools", prepared, rejected, withheld)
	}
	t.Logf("%d histories prepared (%d withholding tools), %d rejected", prepared, withheld, rejected)
}
