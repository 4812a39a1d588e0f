package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// toolChangesModel accepts mid-conversation tool changes.
const toolChangesModel = "claude-opus-5"

func TestToolChangesSupport(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"claude-opus-5", true},
		{"claude-opus-5-5", true},
		{"claude-opus-4-8", true},
		{"claude-opus-4-8-20260301", true},
		{"us.anthropic.claude-opus-4-8-v1:0", true},
		{"claude-opus-4-8@20260301", true},
		{"claude-fable-5", true},
		{"claude-fable-5-1", true},
		{"claude-mythos-5", true},
		{"claude-mythos-preview", true},
		{"my-gateway-model", true},
		{"claude-opus-4-7", false},
		{"claude-opus-4-5", false},
		{"claude-sonnet-5", false},
		{"claude-sonnet-4-5-20250929", false},
		{"claude-haiku-4-5", false},
		{"claude-3-opus-20240229", false},
	}
	for _, tt := range tests {
		if got := toolChanges(parseModelID(tt.id)); got != tt.want {
			t.Errorf("toolChanges(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

// withoutRefund is the catalog once the run's policy withholds
// billing_refund.
func withoutRefund(t testing.TB) *discovery.Catalog {
	t.Helper()
	c, err := discovery.NewCatalog(entries[1:], nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// changeSteps is a conversation whose permitted catalog changes: discover
// billing_refund, call it, lose it (step 3), have it back (step 4). Each
// entry is the history a step sends and whether the policy withholds the
// tool then.
func changeSteps(t *testing.T) (hs [][]model.Message, withheld []bool) {
	hs = steps(t)
	h4 := append(append([]model.Message(nil), hs[2]...),
		model.AssistantMessage(model.TextPart("Refunded.")),
		model.UserMessage("Refund invoice i2 too."),
	)
	return append(hs, h4), []bool{false, false, true, false}
}

func prepared(t *testing.T, c *Client, modelID string, history []model.Message, withheld bool) *model.Request {
	t.Helper()
	cat := newCatalog(t)
	if withheld {
		cat = withoutRefund(t)
	}
	req := &model.Request{Model: modelID, Messages: history, Tools: []model.ToolDefinition{lookupTool},
		Discovery: model.Discovery{Enabled: true}, MaxOutputTokens: 1024}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), cat); err != nil {
		t.Fatal(err)
	}
	return req
}

// runChanges sends every step of changeSteps and returns the fake API and
// the histories, each answer carrying the metadata of its response.
func runChanges(t *testing.T, modelID string, opts ...Option) (*fakeAPI, [][]model.Message) {
	t.Helper()
	hs, withheld := changeSteps(t)
	replies := make([]reply, len(hs))
	for i := range replies {
		replies[i] = textReply("ok")
	}
	api := newFakeAPI(t, replies...)
	c := api.client(opts...)
	for i, h := range hs {
		resp, err := c.Complete(context.Background(), prepared(t, c, modelID, h, withheld[i]))
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		carry(hs, i, resp)
	}
	return api, hs
}

// TestToolChangesGolden checks the request bodies and headers of a
// conversation whose catalog changes on a model with tool changes: the
// tools array and every earlier turn stay byte for byte, the change is a
// system message after the last user turn, and the beta is sent from the
// first change on.
func TestToolChangesGolden(t *testing.T) {
	api, _ := runChanges(t, toolChangesModel)
	var prev []byte
	for i := 0; i < api.requests(); i++ {
		body := api.body(i)
		checkGolden(t, fmt.Sprintf("tool_changes_step%d", i+1), body)
		wantBeta := ""
		if i >= 2 {
			wantBeta = BetaToolChanges
		}
		if got := api.header(i).Get("anthropic-beta"); got != wantBeta {
			t.Errorf("step %d: anthropic-beta %q, want %q", i+1, got, wantBeta)
		}
		if i > 0 {
			p, c := shapeOf(t, prev), shapeOf(t, body)
			if !bytes.Equal(p.Tools, c.Tools) {
				t.Errorf("step %d changed the tools array:\n%s\n%s", i+1, p.Tools, c.Tools)
			}
			for j := 0; j < len(p.Messages)-1; j++ {
				if !bytes.Equal(p.Messages[j], c.Messages[j]) {
					t.Errorf("step %d changed turn %d:\n%s\n%s", i+1, j, p.Messages[j], c.Messages[j])
				}
			}
		}
		prev = body
	}
	want := map[int]string{
		2: `{"content":[{"tool":{"name":"billing_refund","type":"tool_reference"},"type":"tool_removal"}],"role":"system"}`,
		3: `{"content":[{"tool":{"name":"billing_refund","type":"tool_reference"},"type":"tool_addition"}],"role":"system"}`,
	}
	for i, w := range want {
		msgs := shapeOf(t, api.body(i)).Messages
		if got := string(msgs[len(msgs)-1]); got != w {
			t.Errorf("step %d ends with %s, want %s", i+1, got, w)
		}
	}
	// Step 4 renders the removal of step 3 again, before its answer.
	if got := strings.Count(string(api.body(3)), `"type":"tool_removal"`); got != 1 {
		t.Errorf("step 4 renders %d tool removals, want the one of step 3", got)
	}
}

// TestToolChangesReplay renders each step's request from a history stored
// as JSON and read back: the bytes are those sent the first time.
func TestToolChangesReplay(t *testing.T) {
	api, hs := runChanges(t, toolChangesModel)
	_, withheld := changeSteps(t)
	c := New(WithAPIKey("unused"))
	for i, h := range hs {
		stored, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var reloaded []model.Message
		if err := json.Unmarshal(stored, &reloaded); err != nil {
			t.Fatal(err)
		}
		r, err := c.render(prepared(t, c, toolChangesModel, reloaded, withheld[i]))
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		got, err := json.Marshal(r.params)
		if err != nil {
			t.Fatal(err)
		}
		if want := api.body(i); !bytes.Equal(got, want) {
			t.Errorf("step %d renders again as\n%s\nwant\n%s", i+1, got, want)
		}
	}
}

// TestToolChangesFallback checks the renderings that do not use tool
// changes, with the same conversation: a model without them, hosted
// search, a history recorded with tool changes continued on a model
// without them. The declarations follow the permitted catalog, the
// withheld tool is neither declared nor referenced, and no system message
// or beta is sent.
func TestToolChangesFallback(t *testing.T) {
	check := func(t *testing.T, api *fakeAPI, i int) {
		t.Helper()
		body := string(api.body(i))
		if strings.Contains(body, `"role":"system"`) || api.header(i).Get("anthropic-beta") != "" {
			t.Errorf("step %d sends a tool change: %s", i+1, body)
		}
		if strings.Contains(string(shapeOf(t, api.body(i)).Tools), `"billing_refund"`) || strings.Contains(body, `"tool_name":"billing_refund"`) {
			t.Errorf("step %d declares or references the withheld tool: %s", i+1, body)
		}
	}
	for _, rc := range []struct {
		name  string
		model string
		opts  []Option
	}{
		{"without_support", nativeModel, nil},
		{"hosted_search", toolChangesModel, []Option{WithHostedSearch(SearchBM25)}},
		{"forced_emulation", toolChangesModel, []Option{WithEmulation()}},
		{"turned_off", toolChangesModel, []Option{WithoutToolChanges()}},
		{"unrecognized_turned_off", "my-gateway-model", []Option{WithoutToolChanges()}},
	} {
		t.Run(rc.name, func(t *testing.T) {
			api, _ := runChanges(t, rc.model, rc.opts...)
			check(t, api, 2)
		})
	}
	t.Run("history_moved", func(t *testing.T) {
		_, hs := runChanges(t, toolChangesModel)
		api := newFakeAPI(t, textReply("ok"))
		c := api.client()
		if _, err := c.Complete(context.Background(), prepared(t, c, nativeModel, hs[3], true)); err != nil {
			t.Fatal(err)
		}
		check(t, api, 0)
	})
}

// TestToolChangeAfterEmptyAnswer checks that a change recorded on an
// answer that renders no turn (cut off before any content) goes with the
// next turn, where the API takes it, rather than before a user turn.
func TestToolChangeAfterEmptyAnswer(t *testing.T) {
	_, hs := runChanges(t, toolChangesModel)
	h := hs[3]
	empty := model.AssistantMessage(model.TextPart(""))
	empty.Meta = h[len(hs[2])].Meta
	h[len(hs[2])] = empty
	c := New(WithAPIKey("unused"))
	for _, withheld := range []bool{true, false} {
		r, err := c.render(prepared(t, c, toolChangesModel, h, withheld))
		if err != nil {
			t.Fatal(err)
		}
		body, err := json.Marshal(r.params)
		if err != nil {
			t.Fatal(err)
		}
		if err := placedToolChanges(body); err != nil {
			t.Errorf("withheld %v: %v\n%s", withheld, err, body)
		}
		if n := strings.Count(string(body), `"type":"tool_removal"`); n != 1 {
			t.Errorf("withheld %v: %d tool removals, want 1:\n%s", withheld, n, body)
		}
	}
}

// TestToolWithheldRightAfterDiscovery checks a tool withheld on the step
// right after the one that discovered it, before any answer recorded its
// place: it stays declared, after the other deferred tools, and is
// withdrawn.
func TestToolWithheldRightAfterDiscovery(t *testing.T) {
	hs, _ := changeSteps(t)
	c := New(WithAPIKey("unused"))
	r, err := c.render(prepared(t, c, toolChangesModel, hs[1], true))
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(r.params)
	if err != nil {
		t.Fatal(err)
	}
	if err := placedToolChanges(body); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	var req struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	if last := req.Tools[len(req.Tools)-1].Name; last != "billing_refund" || !strings.Contains(string(body), `"type":"tool_removal"`) {
		t.Errorf("last tool %q, want billing_refund withdrawn:\n%s", last, body)
	}
}

// TestToolRedefined checks that a discovered tool whose definition changed
// fails before sending on a model with tool changes, and renders (with the
// new definition) on one without.
func TestToolRedefined(t *testing.T) {
	hs, _ := changeSteps(t)
	changed := answer(t, model.DiscoveryCall{ID: "toolu_d2", Names: []string{"billing_refund"}})
	changed.Tools[0].Description = "Refund an invoice, in part or whole"
	h := append(append([]model.Message(nil), hs[3]...),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "toolu_d2", Names: []string{"billing_refund"}})),
		model.DiscoveryMessage(changed),
	)
	api := newFakeAPI(t, textReply("ok"))
	c := api.client()
	_, err := c.Complete(context.Background(), prepared(t, c, toolChangesModel, h, false))
	var rerr *ToolRedefinedError
	if !errors.As(err, &rerr) || rerr.Name != "billing_refund" || !errors.Is(err, ErrToolRedefined) || !errors.Is(err, model.ErrInvalidRequest) {
		t.Fatalf("err = %v, want a *ToolRedefinedError for billing_refund", err)
	}
	if !strings.Contains(err.Error(), "start a new conversation") {
		t.Errorf("error %q does not say how to go on", err)
	}
	if n := api.requests(); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	if _, err := c.Complete(context.Background(), prepared(t, c, nativeModel, h, false)); err != nil {
		t.Fatalf("without tool changes: %v", err)
	}
}

// TestToolChangeRecordUnreadable checks that a record that does not decode,
// or that this package cannot have written, fails before sending.
func TestToolChangeRecordUnreadable(t *testing.T) {
	for _, raw := range []string{`{"removed":"billing_refund"}`, `{"dropped":["x"]}`, `[]`, `{"removed":["nope"]}`,
		`{"added":["billing_refund"]}`, `{"removed":["billing_refund","billing_refund"]}`, `{"slots":[{"name":"billing_refund","index":-1}]}`} {
		hs, _ := changeSteps(t)
		h := hs[3]
		h[2].Meta = map[string]json.RawMessage{MetaToolChanges: json.RawMessage(raw)}
		c := New(WithAPIKey("unused"))
		_, err := c.render(prepared(t, c, toolChangesModel, h, false))
		var verr *model.ValidationError
		if !errors.As(err, &verr) || verr.Rule != RuleToolChanges || verr.Message != 2 {
			t.Errorf("record %s: err = %v, want a %s violation at message 2", raw, err, RuleToolChanges)
		}
	}
}

// TestToolChangesStream checks that a streamed answer carries the record
// as Complete's does.
func TestToolChangesStream(t *testing.T) {
	_, hs := runChanges(t, toolChangesModel)
	_, withheld := changeSteps(t)
	sse := `event: message_start
data: {"type":"message_start","message":{"id":"msg_s","type":"message","role":"assistant","model":"claude-opus-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}

event: message_stop
data: {"type":"message_stop"}

`
	api := newFakeAPI(t, reply{body: sse, sse: true})
	c := api.client()
	s, err := c.Stream(context.Background(), prepared(t, c, toolChangesModel, hs[2], withheld[2]))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var done *model.DoneEvent
	for done == nil {
		ev, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		done, _ = ev.(*model.DoneEvent)
	}
	if got, want := string(done.Response.Message.Meta[MetaToolChanges]), string(hs[3][len(hs[2])].Meta[MetaToolChanges]); got != want {
		t.Errorf("streamed record %s, want %s", got, want)
	}
}

// FuzzToolChangeRecord renders a history whose answer to the discovery
// call carries an arbitrary tool change record: the request either fails
// validation or places its tool changes as the API takes them
// (placedToolChanges; package conformance checks the golden requests
// against every documented rule).
func FuzzToolChangeRecord(f *testing.F) {
	for _, seed := range []string{`{"slots":[{"name":"billing_refund","index":0}]}`, `{"removed":["billing_refund"]}`,
		`{"removed":["billing_refund"],"added":["billing_refund"]}`, `{"slots":[{"name":"billing_refund","index":99}],"removed":["billing_refund"]}`, `{}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) {
			return
		}
		hs, _ := changeSteps(t)
		h := hs[3]
		h[4].Meta = map[string]json.RawMessage{MetaToolChanges: json.RawMessage(raw)}
		c := New(WithAPIKey("unused"))
		for _, withheld := range []bool{false, true} {
			r, err := c.render(prepared(t, c, toolChangesModel, h, withheld))
			if err != nil {
				if !errors.Is(err, model.ErrInvalidRequest) {
					t.Fatalf("record %s: %v", raw, err)
				}
				continue
			}
			body, err := json.Marshal(r.params)
			if err != nil {
				t.Fatal(err)
			}
			if err := placedToolChanges(body); err != nil {
				t.Fatalf("record %s: %v\n%s", raw, err, body)
			}
		}
	})
}

// placedToolChanges checks a request body's system-role messages: a run
// of them follows a user turn and precedes an assistant turn or ends the
// messages, and they withdraw or offer tools the request declares.
func placedToolChanges(body []byte) error {
	var req struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return err
	}
	declared := map[string]bool{}
	for _, t := range req.Tools {
		declared[t.Name] = true
	}
	for i, m := range req.Messages {
		if m.Role != "system" {
			continue
		}
		// Consecutive system messages count as one.
		prevOK := i > 0 && (req.Messages[i-1].Role == "user" || req.Messages[i-1].Role == "system")
		nextOK := i+1 == len(req.Messages) || req.Messages[i+1].Role == "assistant" || req.Messages[i+1].Role == "system"
		if !prevOK || !nextOK {
			return fmt.Errorf("system message %d is out of place", i)
		}
		var blocks []struct {
			Type string `json:"type"`
			Tool struct {
				Name string `json:"name"`
			} `json:"tool"`
		}
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return err
		}
		if len(blocks) == 0 {
			return fmt.Errorf("system message %d is empty", i)
		}
		for _, b := range blocks {
			if !declared[b.Tool.Name] {
				return fmt.Errorf("system message %d: %s of undeclared %q", i, b.Type, b.Tool.Name)
			}
		}
	}
	return nil
}
