package openaichat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// catalogReplies are the answers of the loop in conversation catalog mode:
// the discovered tool is called through the dispatcher.
func catalogReplies() []openaitest.Reply {
	return []openaitest.Reply{
		{Body: completionJSON(callsMessage([3]string{"call_s1", "tool_search", `{"query":"look up a record"}`}), "tool_calls")},
		{Body: completionJSON(callsMessage([3]string{"call_f1", "call_tool", `{"name":"records_lookup","arguments":{"id":"r1"}}`}), "tool_calls")},
		{Body: completionJSON(answerMessage, "stop")},
	}
}

// TestConversationCatalog runs the loop in conversation catalog mode, by
// the client option and by the request's setting: the bodies are golden,
// the declarations are the same on every request, every request extends
// the previous one, the history is the neutral one (with the catalog
// record in the second answer's Meta), and the stored history renders the
// last request again byte for byte.
func TestConversationCatalog(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		set  bool
	}{
		{"option", []Option{WithConversationCatalog()}, false},
		{"request", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, append(catalogReplies(), openaitest.Reply{Body: completionJSON(answerMessage, "stop")})...)
			c := api.client(tc.opts...)
			history := openaitest.Start()
			var last *model.Request
			for step := 0; ; step++ {
				req := openaitest.Prepare(t, c, chatModel, history, openaitest.Catalog(t))
				req.Discovery.ConversationCatalog = tc.set
				resp, err := c.Complete(t.Context(), req)
				if err != nil {
					t.Fatalf("step %d: %v", step+1, err)
				}
				last = req
				history = append(history, resp.Message)
				if resp.FinishReason != model.FinishToolCalls {
					break
				}
				if calls := resp.DiscoveryCalls(); len(calls) > 0 {
					r, err := openaitest.Catalog(t).Answer(calls[0], 2)
					if err != nil {
						t.Fatal(err)
					}
					history = append(history, model.DiscoveryMessage(r))
				}
				for _, call := range resp.ToolCalls() {
					history = append(history, model.ToolMessage(model.ToolResult{CallID: call.ID, Name: call.Name, Content: `{"id":"r1","status":"late"}`}))
				}
			}
			for i := range 3 {
				golden.JSON(t, filepath.Join("testdata", fmt.Sprintf("catalog_step%d.json", i+1)), api.Body(i))
			}
			if diff := cmp.Diff(openaitest.WantHistory(), openaitest.StripMeta(history)); diff != "" {
				t.Fatalf("history (-want +got):\n%s", diff)
			}
			if _, ok := history[4].Meta[emulation.MetaKey]; !ok {
				t.Errorf("the answer to the request with the catalog message has no catalog record: %v", history[4].Meta)
			}
			var prev requestShape
			for i := range 3 {
				var cur requestShape
				if err := json.Unmarshal(api.Body(i), &cur); err != nil {
					t.Fatal(err)
				}
				if i > 0 {
					if !bytes.Equal(prev.Tools, cur.Tools) {
						t.Errorf("declarations of request %d differ from request %d", i+1, i)
					}
					for k := range prev.Messages {
						if k >= len(cur.Messages) || !bytes.Equal(prev.Messages[k], cur.Messages[k]) {
							t.Errorf("message %d changed between requests %d and %d", k, i, i+1)
						}
					}
				}
				prev = cur
			}
			// Replay: the last request again, from the stored history.
			stored, err := json.Marshal(history[:len(history)-1])
			if err != nil {
				t.Fatal(err)
			}
			var reloaded []model.Message
			if err := json.Unmarshal(stored, &reloaded); err != nil {
				t.Fatal(err)
			}
			again := *last
			again.Messages = reloaded
			if _, err := c.Complete(t.Context(), &again); err != nil {
				t.Fatal(err)
			}
			if got, want := api.Body(3), api.Body(2); !bytes.Equal(got, want) {
				t.Errorf("the reloaded history renders\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestConversationCatalogRecordBroken refuses a history whose catalog
// record cannot be read, before sending.
func TestConversationCatalogRecordBroken(t *testing.T) {
	api := newFakeAPI(t)
	c := api.client(WithConversationCatalog())
	history := append(openaitest.Start(), model.Message{Role: model.RoleAssistant, Parts: []model.Part{model.TextPart("ok")},
		Meta: map[string]json.RawMessage{emulation.MetaKey: json.RawMessage(`{"tools":[]}`)}}, model.UserMessage("next"))
	_, err := c.Complete(t.Context(), openaitest.Prepare(t, c, chatModel, history, openaitest.Catalog(t)))
	var verr *model.ValidationError
	if !errors.As(err, &verr) || verr.Rule != emulation.RuleCatalogRecord || verr.Message != 2 {
		t.Fatalf("err = %v, want a %s failure at message 2", err, emulation.RuleCatalogRecord)
	}
	if api.Requests() != 0 {
		t.Errorf("%d requests sent", api.Requests())
	}
}
