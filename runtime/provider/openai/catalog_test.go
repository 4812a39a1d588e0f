package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// dispatchCallItem calls the discovered tool through the dispatcher.
const dispatchCallItem = `{"type":"function_call","id":"fc_1","call_id":"call_f1","name":"call_tool","arguments":"{\"name\":\"records_lookup\",\"arguments\":{\"id\": \"r1\"}}","status":"completed"}`

// TestConversationCatalog runs the loop in conversation catalog mode on an
// emulated model and with emulation forced on a native one: the bodies are
// golden, the declarations never change, each request extends the last
// one, and the history is the neutral one with the catalog record in the
// answer to the request that carried the catalog message.
func TestConversationCatalog(t *testing.T) {
	for _, rc := range []struct {
		name, model string
		opts        []Option
	}{
		{"emulated_catalog", emulatedModel, []Option{WithConversationCatalog()}},
		{"forced_emulation_catalog", nativeModel, []Option{WithEmulation(), WithConversationCatalog()}},
	} {
		t.Run(rc.name, func(t *testing.T) {
			replies := []reply{
				{Body: responseJSON(rc.model, emuSearchItem)},
				{Body: responseJSON(rc.model, dispatchCallItem)},
				{Body: responseJSON(rc.model, answerItem)},
			}
			api := newFakeAPI(t, replies...)
			history := runLoop(t, api.client(rc.opts...), rc.model, testCatalog(t), start())
			for i := range 3 {
				checkGolden(t, fmt.Sprintf("%s_step%d", rc.name, i+1), api.body(i))
			}
			if diff := cmp.Diff(openaitest.WantHistory(), stripMeta(history)); diff != "" {
				t.Fatalf("history (-want +got):\n%s", diff)
			}
			for i, m := range history {
				if _, has := m.Meta[emulation.MetaKey]; has != (i == 4) {
					t.Errorf("message %d (%s): has a catalog record = %v", i, m.Role, has)
				}
			}
			var prev struct {
				Tools json.RawMessage   `json:"tools"`
				Input []json.RawMessage `json:"input"`
			}
			for i := range 3 {
				cur := prev
				cur.Input = nil
				if err := json.Unmarshal(api.body(i), &cur); err != nil {
					t.Fatal(err)
				}
				if i > 0 {
					if !bytes.Equal(prev.Tools, cur.Tools) {
						t.Errorf("request %d changed the declarations", i+1)
					}
					for k := range prev.Input {
						if k >= len(cur.Input) || !bytes.Equal(prev.Input[k], cur.Input[k]) {
							t.Errorf("request %d changed input item %d", i+1, k)
						}
					}
				}
				prev = cur
			}
		})
	}
}
