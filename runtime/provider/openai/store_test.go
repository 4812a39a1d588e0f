package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/shared"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

const encryptedReasoningItem = `{"type":"reasoning","id":"rs_2","summary":[{"type":"summary_text","text":"Find the record tool."}],"encrypted_content":"gAAAAABo-encrypted"}`

// TestStoreFalse checks a client that stores nothing: every request says
// store false and asks for reasoning.encrypted_content; a reasoning item
// that came with it is replayed with it; one without it fails before
// sending.
func TestStoreFalse(t *testing.T) {
	cat := testCatalog(t)
	api := newFakeAPI(t,
		reply{Body: responseJSON(nativeModel, encryptedReasoningItem, searchCallItem)},
		reply{Body: responseJSON(nativeModel, answerItem)})
	c := api.client(WithStore(false))
	resp, err := c.Complete(context.Background(), prepare(t, c, nativeModel, start(), cat))
	if err != nil {
		t.Fatal(err)
	}
	want := model.ReasoningPart(model.Reasoning{Text: "Find the record tool."}, MetaKey, []byte(encryptedReasoningItem))
	if got := resp.Message.Parts[0]; got.Kind != model.PartReasoning || *got.Reasoning != *want.Reasoning || string(got.Meta[MetaKey]) != encryptedReasoningItem {
		t.Errorf("first part %+v, want the reasoning item", got)
	}
	var first struct {
		Store   *bool    `json:"store"`
		Include []string `json:"include"`
	}
	if err := json.Unmarshal(api.body(0), &first); err != nil {
		t.Fatal(err)
	}
	if first.Store == nil || *first.Store || len(first.Include) != 1 || first.Include[0] != "reasoning.encrypted_content" {
		t.Errorf("store %v, include %v; want false and reasoning.encrypted_content", first.Store, first.Include)
	}
	history := append(start(), resp.Message)
	for _, call := range resp.DiscoveryCalls() {
		r, err := cat.Answer(call, 2)
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, model.DiscoveryMessage(r))
	}
	if _, err := c.Complete(context.Background(), prepare(t, c, nativeModel, history, cat)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(api.body(1)), `"encrypted_content":"gAAAAABo-encrypted"`) {
		t.Errorf("second request does not replay the encrypted reasoning:\n%s", api.body(1))
	}

	// A history recorded by a client that stored: its reasoning item has
	// no encrypted content.
	stored := newFakeAPI(t, reply{Body: responseJSON(nativeModel, reasoningItem, searchCallItem)})
	resp, err = stored.client().Complete(context.Background(), prepare(t, c, nativeModel, start(), cat))
	if err != nil {
		t.Fatal(err)
	}
	history = append(start(), resp.Message)
	for _, call := range resp.DiscoveryCalls() {
		r, _ := cat.Answer(call, 2)
		history = append(history, model.DiscoveryMessage(r))
	}
	before := api.requests()
	_, err = c.Complete(context.Background(), prepare(t, c, nativeModel, history, cat))
	var ve *model.ValidationError
	if !errors.As(err, &ve) || ve.Rule != RuleStore || ve.Message != 2 {
		t.Fatalf("error %v, want rule %s at message 2", err, RuleStore)
	}
	if api.requests() != before {
		t.Error("a request was sent")
	}
}

// TestStoreDefault checks that without WithStore neither store nor include
// is sent.
func TestStoreDefault(t *testing.T) {
	c := New()
	body := string(renderBody(t, c, prepare(t, c, nativeModel, start(), testCatalog(t))))
	if strings.Contains(body, `"store"`) || strings.Contains(body, `"include"`) {
		t.Errorf("default request sends store or include:\n%s", body)
	}
}

// TestSamplingOnReasoningModels checks that a temperature goes out only
// where the model takes one, typed in the SDK's field, and is refused
// before sending elsewhere.
func TestSamplingOnReasoningModels(t *testing.T) {
	temp := 0.3
	tests := []struct {
		name   string
		model  string
		effort shared.ReasoningEffort
		ok     bool
	}{
		{"non-reasoning model", emulatedModel, "", true},
		{"gpt-5.4 at its default effort none", nativeModel, "", true},
		{"gpt-5.4 at effort none", nativeModel, shared.ReasoningEffortNone, true},
		{"gpt-5.4 reasoning", nativeModel, shared.ReasoningEffortHigh, false},
		{"gpt-5 always reasons", "gpt-5-mini", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(WithReasoningEffort(tt.effort))
			req := prepare(t, c, tt.model, start(), testCatalog(t))
			req.Temperature = &temp
			_, params, err := c.render(req)
			if !tt.ok {
				var ve *model.ValidationError
				if !errors.As(err, &ve) || ve.Rule != RuleSampling {
					t.Fatalf("error %v, want rule %s", err, RuleSampling)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if params.Temperature.Value != temp || string(params.Reasoning.Effort) != string(tt.effort) {
				t.Errorf("temperature %v, effort %q", params.Temperature, params.Reasoning.Effort)
			}
		})
	}
}
