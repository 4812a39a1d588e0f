package openai_test

import (
	"context"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openai"
)

// The adapter renders discovery natively for GPT-5.4 and later, emulated
// for other models; WithEmulation forces emulation, for a gateway that
// drops native items.
func ExampleClient_Capabilities() {
	c := openai.New(openai.WithAPIKey("sk-..."))
	gateway := openai.New(openai.WithBaseURL("https://gateway.example/v1"), openai.WithEmulation())
	for _, id := range []string{"gpt-5.4", "gpt-5.4-nano", "my-azure-deployment"} {
		fmt.Println(id, c.Capabilities(id).Discovery, gateway.Capabilities(id).Discovery)
	}
	// Output:
	// gpt-5.4 native emulated
	// gpt-5.4-nano emulated emulated
	// my-azure-deployment emulated emulated
}

// One planning step: package discovery prepares the request (declarations
// and checks), the adapter sends it, and the application answers the
// discovery calls from its catalog before the next step.
func ExampleClient_Complete() {
	ctx := context.Background()
	c := openai.New(openai.WithAPIKey("sk-..."))
	catalog, err := discovery.NewCatalog(nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	req := &model.Request{
		Model:           "gpt-5.4",
		Messages:        []model.Message{model.UserMessage("Refund invoice 42.")},
		Discovery:       model.Discovery{Enabled: true},
		MaxOutputTokens: 2048,
	}
	if _, err := discovery.Prepare(req, c.Capabilities(req.Model), catalog); err != nil {
		fmt.Println(err)
		return
	}
	resp, err := c.Complete(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	history := append(req.Messages, resp.Message)
	for _, call := range resp.DiscoveryCalls() {
		result, err := catalog.Answer(call, 0)
		if err != nil {
			fmt.Println(err)
			return
		}
		history = append(history, model.DiscoveryMessage(result))
	}
	fmt.Println(len(history))
}
