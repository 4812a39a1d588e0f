package discovery_test

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func ExampleCatalog_Answer() {
	params := json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"}}}`)
	catalog, err := discovery.NewCatalog([]discovery.Entry{
		{Name: "mail.send", Snapshot: model.ToolSnapshot{Name: "mail_send", Description: "Send an email", Parameters: params}},
		{Name: "mail.draft", Snapshot: model.ToolSnapshot{Name: "mail_draft", Description: "Draft an email", Parameters: params}},
		{Name: "calendar.create", Snapshot: model.ToolSnapshot{Name: "calendar_create", Description: "Create a calendar event", Parameters: params}},
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}

	// The model asked for one tool by name and for more by keywords.
	call := model.DiscoveryCall{ID: "d1", Names: []string{"calendar_create"}, Query: "send email"}
	result, err := catalog.Answer(call, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range result.Tools {
		fmt.Println(s.Name)
	}

	// The result goes into the history; the next request declares the
	// discovered tools after the application's tools and the discovery tool.
	history := []model.Message{
		model.UserMessage("Invite Ana and email her the agenda."),
		model.AssistantMessage(model.DiscoveryCallPart(call)),
		model.DiscoveryMessage(result),
	}
	decl, err := discovery.Declare(nil, history, discovery.Options{Enabled: true, Permitted: catalog})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range decl.Tools {
		fmt.Println(t.Name, t.Kind)
	}
	// Output:
	// calendar_create
	// mail_send
	// tool_search discovery
	// calendar_create discovered
	// mail_send discovered
}
