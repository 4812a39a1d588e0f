// Command helpdesk runs the desk agent of the helpdesk design once, or with
// -registry URL the analyst agent over the tools published in a registry.
// Its planner is scripted, so it runs offline: it searches for a tool, calls
// the tool it found and answers. Replace it with planner.New over a provider
// client (package runtime/planner) to ask a real model.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"strings"

	"example.com/helpdesk/gen/agents/desk"
	"example.com/helpdesk/gen/toolsets/tickets"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// ticketBook executes the tickets tools: it implements the generated
// tickets.Executor, one method per tool, with typed arguments and results.
type ticketBook struct{ tickets map[string]*tickets.Ticket }

func (b ticketBook) GetTicket(_ context.Context, args *tickets.TicketID) (*tickets.Ticket, error) {
	t, ok := b.tickets[args.ID]
	if !ok {
		return nil, fmt.Errorf("no ticket %s", args.ID)
	}
	return t, nil
}

func (b ticketBook) SearchTickets(_ context.Context, args *tickets.SearchTicketsArgs) ([]*tickets.Ticket, error) {
	var found []*tickets.Ticket
	for _, t := range b.tickets {
		if t.Status == "open" && strings.Contains(strings.ToLower(t.Title), strings.ToLower(args.Query)) {
			found = append(found, t)
		}
	}
	return found, nil
}

func (b ticketBook) CloseTicket(_ context.Context, args *tickets.CloseTicketArgs) (*tickets.Ticket, error) {
	t, err := b.GetTicket(context.Background(), &tickets.TicketID{ID: args.ID})
	if err != nil {
		return nil, err
	}
	t.Status = "closed"
	return t, nil
}

// scripted stands in for a model: step 1 searches the deferred tools, step 2
// calls the tool the search found, step 3 answers.
var scripted = runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
	switch in.Agent.Step() {
	case 1:
		search := model.DiscoveryCall{ID: "d1", Query: "search open tickets by keywords"}
		return model.NewResponse(model.AssistantMessage(model.DiscoveryCallPart(search)), model.FinishToolCalls, model.Usage{})
	case 2:
		call := model.ToolCall{ID: "c1", Name: "tickets_search_tickets", Arguments: json.RawMessage(`{"query":"invoice"}`)}
		return model.NewResponse(model.AssistantMessage(model.ToolCallPart(call)), model.FinishToolCalls, model.Usage{})
	default:
		return model.NewResponse(model.AssistantMessage(model.TextPart("T-2 is the open invoice ticket.")), model.FinishStop, model.Usage{})
	}
})

func main() {
	registryURL := flag.String("registry", "", "URL of a registry (goa-discovery registry serve) to publish the tickets toolset in and run the analyst agent over")
	flag.Parse()
	ctx := context.Background()
	book := ticketBook{tickets: map[string]*tickets.Ticket{
		"T-1": {ID: "T-1", Title: "Cannot log in", Status: "open"},
		"T-2": {ID: "T-2", Title: "Invoice shows the wrong amount", Status: "open"},
	}}
	var out *runtime.RunOutput
	var err error
	if *registryURL == "" {
		out, err = runDesk(ctx, book)
	} else {
		out, err = runAnalyst(ctx, *registryURL, book)
	}
	if err != nil {
		log.Fatal(err)
	}
	report(out)
}

// runDesk runs the desk agent with the tickets toolset executed in this
// process.
func runDesk(ctx context.Context, book ticketBook) (*runtime.RunOutput, error) {
	rt := runtime.New() // in-memory engine
	if err := tickets.Register(rt, book); err != nil {
		return nil, err
	}
	if err := desk.RegisterDeskAgent(ctx, rt, desk.DeskAgentConfig{Planner: scripted}); err != nil {
		return nil, err
	}
	return desk.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("Which open ticket is about an invoice?")})
}

// report prints what the run found, called and answered.
func report(out *runtime.RunOutput) {
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if r := p.DiscoveryResult; r != nil {
				for _, s := range r.Tools {
					fmt.Println("found", s.Name)
				}
			}
			if r := p.ToolResult; r != nil {
				fmt.Println("result:", r.Content)
			}
		}
	}
	for _, c := range out.Calls {
		fmt.Printf("called %s (%s toolset %s) with %s\n", c.Tool, c.Source.Kind, c.Source.Toolset, c.Arguments)
	}
	fmt.Println("answer:", out.Final.Text())
}
