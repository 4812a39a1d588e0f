package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func textReply(text string) reply {
	return reply{body: fmt.Sprintf(`{"id":"msg_t","type":"message","role":"assistant","model":%q,"content":[{"type":"text","text":%q}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}`, nativeModel, text)}
}

// renderings are the ways this adapter renders discovery.
var renderings = []struct {
	name  string
	model string
	opts  []Option
}{
	{"native_client", nativeModel, nil},
	{"native_hosted_bm25", nativeModel, []Option{WithHostedSearch(SearchBM25)}},
	{"emulated", emulatedModel, nil},
	{"forced_emulation", nativeModel, []Option{WithEmulation()}},
	{"emulated_catalog", emulatedModel, []Option{WithConversationCatalog()}},
	{"forced_emulation_catalog", nativeModel, []Option{WithEmulation(), WithConversationCatalog()}},
}

// TestGoldenRequests sends the discover -> call -> answer history after
// each step and compares the exact request bodies with testdata/: the
// first request (deferred tools, search tool), the discovery result, and
// the call of a discovered tool.
func TestGoldenRequests(t *testing.T) {
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			hs := steps(t)
			replies := make([]reply, len(hs))
			for i := range replies {
				replies[i] = textReply("Done.")
			}
			api := newFakeAPI(t, replies...)
			c := api.client(rc.opts...)
			for i, h := range hs {
				resp, err := c.Complete(context.Background(), request(t, c, rc.model, h))
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				carry(hs, i, resp)
				if got := resp.Message.Text(); got != "Done." {
					t.Fatalf("step %d: text %q", i+1, got)
				}
				checkGolden(t, fmt.Sprintf("%s_step%d", rc.name, i+1), api.body(i))
			}
		})
	}
}

// requestShape is the part of a request body that prompt caching sees.
type requestShape struct {
	System   json.RawMessage   `json:"system"`
	Tools    json.RawMessage   `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
}

func shapeOf(t *testing.T, body []byte) requestShape {
	t.Helper()
	var s requestShape
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPromptCacheStability checks, across the steps of a run, that native
// rendering sends the same declaration bytes on every request and that
// every rendered turn of an earlier request is sent again byte for byte;
// emulated rendering changes the declarations only when a step discovered
// something, by appending.
func TestPromptCacheStability(t *testing.T) {
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			hs := steps(t)
			// A fourth step discovers nothing new.
			again := model.DiscoveryCall{ID: "toolu_d2", Names: []string{"billing_refund"}}
			h4 := append(append([]model.Message(nil), hs[2]...),
				model.AssistantMessage(model.DiscoveryCallPart(again)),
				model.DiscoveryMessage(answer(t, again)),
			)
			hs = append(hs, h4)
			replies := make([]reply, len(hs))
			for i := range replies {
				replies[i] = textReply("ok")
			}
			api := newFakeAPI(t, replies...)
			c := api.client(rc.opts...)
			var shapes []requestShape
			for i, h := range hs {
				resp, err := c.Complete(context.Background(), request(t, c, rc.model, h))
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				carry(hs, i, resp)
				shapes = append(shapes, shapeOf(t, api.body(i)))
			}
			// Conversation catalogs keep the declarations as native
			// rendering does.
			native := rc.name == "native_client" || rc.name == "native_hosted_bm25" || strings.HasSuffix(rc.name, "_catalog")
			for i := 1; i < len(shapes); i++ {
				prev, cur := shapes[i-1], shapes[i]
				if !bytes.Equal(prev.System, cur.System) {
					t.Errorf("step %d changed the system prompt", i+1)
				}
				// Each step appends to the history; the turns of the earlier
				// request are unchanged except its last, which later parts
				// of the same role may extend.
				for j := 0; j < len(prev.Messages)-1; j++ {
					if !bytes.Equal(prev.Messages[j], cur.Messages[j]) {
						t.Errorf("step %d changed rendered turn %d:\n%s\n%s", i+1, j, prev.Messages[j], cur.Messages[j])
					}
				}
				last := len(prev.Messages) - 1
				if !extends(t, prev.Messages[last], cur.Messages[last]) {
					t.Errorf("step %d rewrote turn %d instead of extending it:\n%s\n%s", i+1, last, prev.Messages[last], cur.Messages[last])
				}
				newTools := i == 1 // only step 2 discovers new tools
				switch {
				case native && !bytes.Equal(prev.Tools, cur.Tools):
					t.Errorf("native step %d changed the declarations:\n%s\n%s", i+1, prev.Tools, cur.Tools)
				case !native && !newTools && !bytes.Equal(prev.Tools, cur.Tools):
					t.Errorf("emulated step %d changed the declarations without discovering anything", i+1)
				case !native && newTools && bytes.Equal(prev.Tools, cur.Tools):
					t.Errorf("emulated step %d discovered tools but did not declare them", i+1)
				}
			}
		})
	}
}

// carry gives the assistant message that answers step i in the later
// histories the metadata of the response to step i, as a run appending the
// response would: a catalog record travels there.
func carry(hs [][]model.Message, i int, resp *model.Response) {
	if resp.Message.Meta == nil {
		return
	}
	for k := i + 1; k < len(hs); k++ {
		hs[k][len(hs[i])].Meta = resp.Message.Meta
	}
}

// extends reports whether turn cur has the role of prev and starts with
// prev's content blocks, byte for byte.
func extends(t *testing.T, prev, cur json.RawMessage) bool {
	t.Helper()
	type turn struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	var p, c turn
	if err := json.Unmarshal(prev, &p); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(cur, &c); err != nil {
		t.Fatal(err)
	}
	if p.Role != c.Role || len(c.Content) < len(p.Content) {
		return false
	}
	for i := range p.Content {
		if !bytes.Equal(p.Content[i], c.Content[i]) {
			return false
		}
	}
	return true
}

// TestDeclarationRules checks what native rendering promises about deferred
// tools: every catalog tool is deferred, no deferred tool carries
// cache_control, the breakpoint is on the last non-deferred tool.
func TestDeclarationRules(t *testing.T) {
	for _, hosted := range []HostedSearch{ClientSearch, SearchBM25, SearchRegex} {
		t.Run(hosted.String(), func(t *testing.T) {
			c := New(WithHostedSearch(hosted), WithAPIKey("unused"))
			r, err := c.render(request(t, c, nativeModel, steps(t)[2]))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(r.params.Tools)
			if err != nil {
				t.Fatal(err)
			}
			var tools []map[string]any
			if err := json.Unmarshal(raw, &tools); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range tools {
				kind := "eager"
				if tool["defer_loading"] == true {
					kind = "deferred"
				}
				if _, ok := tool["cache_control"]; ok {
					kind += "+cache"
				}
				got = append(got, fmt.Sprintf("%v:%s", tool["name"], kind))
			}
			search := discovery.ToolName
			if hosted != ClientSearch {
				search = hostedToolName(hosted)
			}
			want := []string{"records_lookup:eager", search + ":eager+cache", "billing_refund:deferred", "billing_invoices:deferred", "records_analyze:deferred"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("declarations (-want +got):\n%s", diff)
			}
		})
	}
}
