package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestWithheldToolNeverShown continues a history whose discovery result
// lists a tool the run's catalog no longer permits: no rendering names it.
func TestWithheldToolNeverShown(t *testing.T) {
	secret := model.ToolSnapshot{Name: "billing_delete_all", Description: "Delete every invoice", Parameters: json.RawMessage(`{"type":"object"}`)}
	call := model.DiscoveryCall{ID: "toolu_d1", Query: "invoice"}
	found := answer(t, call)
	found.Tools = append(found.Tools, secret)
	history := append(opening(),
		model.AssistantMessage(model.DiscoveryCallPart(call)),
		model.DiscoveryMessage(found),
	)
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			api := newFakeAPI(t, textReply("ok"))
			c := api.client(rc.opts...)
			if _, err := c.Complete(context.Background(), request(t, c, rc.model, history)); err != nil {
				t.Fatal(err)
			}
			body := api.body(0)
			if bytes.Contains(body, []byte(secret.Name)) || bytes.Contains(body, []byte(secret.Description)) {
				t.Fatalf("request shows a withheld tool:\n%s", body)
			}
			if !bytes.Contains(body, []byte("billing_refund")) {
				t.Fatalf("request does not show the permitted tool:\n%s", body)
			}
		})
	}
}
