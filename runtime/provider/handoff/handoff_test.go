package handoff

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// TestContinueOnEveryRendering starts a conversation on each adapter and
// rendering (discover, call a discovered tool, answer), stores and reloads
// it, and continues it on each adapter and rendering for two more steps:
// the model calls the tool discovered before the switch, then answers. Each
// continuation must be accepted, decode the call to the conversation's tool
// name, send what the provider accepts (checkMessages, checkResponses,
// checkChat), send no other rendering's native records, and render its
// first request again, byte for byte, at the start of its second.
func TestContinueOnEveryRendering(t *testing.T) {
	all := renderings()
	for _, from := range all {
		history := source(t, from)
		for _, to := range all {
			t.Run(from.name+"/to/"+to.name, func(t *testing.T) {
				continueOn(t, to, history)
			})
		}
	}
}

func continueOn(t *testing.T, to rendering, started []model.Message) {
	api := openaitest.New(t, to.path, openaitest.Reply{Body: to.call}, openaitest.Reply{Body: to.answer})
	c := to.client(api.URL())
	history := append(slices.Clone(started), model.UserMessage("And record r2?"))

	resp, err := c.Complete(t.Context(), prepare(t, c, to.model, history))
	if err != nil {
		t.Fatalf("first step: %v", err)
	}
	calls := resp.ToolCalls()
	if len(calls) != 1 || calls[0].Name != "records_lookup" || string(calls[0].Arguments) != `{"id":"r2"}` {
		t.Fatalf("first step decoded calls %+v, want records_lookup for r2", calls)
	}
	history = append(append(history, resp.Message), answer(t, resp)...)
	history = reload(t, history)

	resp, err = c.Complete(t.Context(), prepare(t, c, to.model, history))
	if err != nil {
		t.Fatalf("second step: %v", err)
	}
	if got := resp.Message.Text(); got != "Record r2 is on time." {
		t.Fatalf("second step answered %q", got)
	}
	history = append(history, resp.Message)
	if err := discovery.ValidateHistory(history); err != nil {
		t.Fatalf("continued history: %v", err)
	}

	var others []string
	for _, r := range renderings() {
		others = append(others, r.records...)
	}
	for i := range 2 {
		body := api.Body(i)
		to.check(t, body)
		for _, rec := range others {
			if bytes.Contains(body, []byte(rec)) && !slices.Contains(to.records, rec) {
				t.Errorf("request %d holds %s, a native record of another rendering:\n%s", i+1, rec, body)
			}
		}
	}
	if to.path == "/v1/messages" && hasReasoning(started, anthropic.Provider) && !bytes.Contains(api.Body(0), []byte(claudeThinking)) {
		t.Errorf("the thinking block of the history is not sent back as it came:\n%s", api.Body(0))
	}
	tools1, items1 := to.shape(t, api.Body(0))
	tools2, items2 := to.shape(t, api.Body(1))
	if !bytes.Equal(tools1, tools2) {
		t.Errorf("the declarations changed between two steps that discovered nothing:\n%s\n%s", tools1, tools2)
	}
	if len(items2) < len(items1) {
		t.Fatalf("the second request renders %d history items, the first %d", len(items2), len(items1))
	}
	if diff := cmp.Diff(rawStrings(items1), rawStrings(items2[:len(items1)])); diff != "" {
		t.Errorf("the second request renders the first request's history differently (-first +second):\n%s", diff)
	}
}

// hasReasoning reports whether history holds reasoning made by provider.
func hasReasoning(history []model.Message, provider string) bool {
	for _, m := range history {
		for _, p := range m.Parts {
			if _, ok := p.Meta[provider]; ok && p.Kind == model.PartReasoning {
				return true
			}
		}
	}
	return false
}

func rawStrings[T ~[]byte](items []T) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = string(it)
	}
	return out
}

// TestNameCollisionRejectedBeforeSending gives every adapter and rendering
// two tools whose names map to one provider name: the request fails with a
// validation error and nothing is sent.
func TestNameCollisionRejectedBeforeSending(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"zone":{"type":"string"}}}`)
	for _, r := range renderings() {
		t.Run(r.name, func(t *testing.T) {
			api := openaitest.New(t, r.path)
			c := r.client(api.URL())
			req := &model.Request{
				Model:    r.model,
				Messages: openaitest.Start(),
				Tools: []model.ToolDefinition{
					{Name: "clock.get_time", Description: "Time of day", Parameters: params},
					{Name: "clock_get_time", Description: "Time of day", Parameters: params},
				},
				Discovery:       model.Discovery{Enabled: true},
				MaxOutputTokens: 1024,
			}
			if _, err := discovery.Prepare(req, c.Capabilities(r.model), nil); err != nil {
				t.Fatalf("prepare: %v", err)
			}
			for _, send := range []func() error{
				func() error { _, err := c.Complete(t.Context(), req); return err },
				func() error { _, err := c.Stream(t.Context(), req); return err },
			} {
				if err := send(); !errors.Is(err, model.ErrInvalidRequest) {
					t.Errorf("error %v, want one matching model.ErrInvalidRequest", err)
				}
			}
			if n := api.Requests(); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}
