// Package example_test checks the committed example/gen against the runtime:
// its precomputed search counts and fingerprints, its validating codecs, and
// the registration of its toolsets and agents.
package example_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/agents/analyst"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/desk"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/researcher"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/senior"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/escalation"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// generatedToolset is what every generated toolset package exposes.
type generatedToolset struct {
	name        string
	toolset     func() tools.ToolsetSchema
	counts      func() []toolsearch.Counts
	fingerprint func(string) (tools.Fingerprint, error)
}

var toolsets = []generatedToolset{
	{customers.Name, customers.Toolset, customers.SearchCounts, customers.SchemaFingerprint},
	{escalation.Name, escalation.Toolset, escalation.SearchCounts, escalation.SchemaFingerprint},
	{knowledge.Name, knowledge.Toolset, knowledge.SearchCounts, knowledge.SchemaFingerprint},
	{tickets.Name, tickets.Toolset, tickets.SearchCounts, tickets.SchemaFingerprint},
}

func TestSearchCountsEqualRuntime(t *testing.T) {
	for _, ts := range toolsets {
		t.Run(ts.name, func(t *testing.T) {
			schemas := ts.toolset().Tools
			counts := ts.counts()
			if len(counts) != len(schemas) {
				t.Fatalf("%d counts for %d tools", len(counts), len(schemas))
			}
			for i, s := range schemas {
				entry, err := discovery.EntryFromSchema(&s)
				if err != nil {
					t.Fatal(err)
				}
				want, err := toolsearch.Count(toolsearch.Document{
					Name: string(s.Name), Alias: entry.Snapshot.Name, Title: s.Title, Description: s.Description,
					Parameters: entry.Snapshot.Parameters, SearchTerms: entry.SearchTerms,
				})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(counts[i], want) {
					t.Errorf("counts of %s differ from toolsearch.Count:\n got %+v\nwant %+v", s.Name, counts[i], want)
				}
			}
		})
	}
}

func TestSchemaFingerprintEqualsRuntime(t *testing.T) {
	for _, ts := range toolsets {
		t.Run(ts.name, func(t *testing.T) {
			for _, name := range []string{ts.name, "renamed"} {
				got, err := ts.fingerprint(name)
				if err != nil {
					t.Fatal(err)
				}
				want, err := tools.SchemaFingerprint(name, ts.toolset().Tools)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("SchemaFingerprint(%q) = %s, runtime computes %s", name, got, want)
				}
			}
		})
	}
}

func TestCodecsValidate(t *testing.T) {
	spec, ok := tickets.Spec(tickets.SearchTickets)
	if !ok {
		t.Fatal("no spec for search_tickets")
	}
	cases := []struct {
		name    string
		payload string
		wantErr bool
	}{
		{"valid", `{"query":"refund","status":"open","limit":5}`, false},
		{"missing required", `{"status":"open"}`, true},
		{"enum", `{"query":"refund","status":"lost"}`, true},
		{"range", `{"query":"refund","limit":500}`, true},
		{"unknown property", `{"query":"refund","colour":"red"}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := spec.Payload.Decode([]byte(tc.payload))
			if tc.wantErr {
				if !errors.Is(err, tools.ErrPayloadInvalid) {
					t.Fatalf("Decode(%s) error = %v, want ErrPayloadInvalid", tc.payload, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			args, ok := v.(tickets.SearchTicketsArgs)
			if !ok || args.Query != "refund" || args.Limit == nil || *args.Limit != 5 {
				t.Fatalf("Decode = %#v", v)
			}
		})
	}
}

// ticketDesk is a test double of the ticket executor.
type ticketDesk struct{}

func (ticketDesk) GetTicket(context.Context, *tickets.GetTicketArgs) (*tickets.Ticket, error) {
	return nil, errors.New("not used")
}

func (ticketDesk) SearchTickets(context.Context, *tickets.SearchTicketsArgs) ([]*tickets.Ticket, error) {
	return nil, nil
}

func (ticketDesk) UpdateTicket(context.Context, *tickets.UpdateTicketArgs) (*tickets.Ticket, error) {
	return nil, errors.New("not used")
}

func (ticketDesk) MergeTickets(context.Context, *tickets.MergeTicketsArgs) (*tickets.Ticket, error) {
	return nil, errors.New("not used")
}

func (ticketDesk) CloseTicket(context.Context, *tickets.CloseTicketArgs) error { return nil }

func TestRegister(t *testing.T) {
	ctx := context.Background()
	rt := runtime.New()
	if err := tickets.Register(rt, ticketDesk{}); err != nil {
		t.Fatalf("register tickets: %v", err)
	}
	if err := tickets.Register(rt, ticketDesk{}); !errors.Is(err, runtime.ErrAlreadyRegistered) {
		t.Fatalf("second registration = %v, want ErrAlreadyRegistered", err)
	}
	if err := escalation.Register(rt); err != nil {
		t.Fatalf("register escalation: %v", err)
	}
	if err := customers.Register(rt, customerBook{}); err != nil {
		t.Fatalf("register customers: %v", err)
	}
	if err := knowledge.Register(rt, &articleShelf{}); err != nil {
		t.Fatalf("register knowledge: %v", err)
	}
	planner := runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
		return nil, errors.New("not used")
	})
	if err := desk.RegisterDeskAgent(ctx, rt, desk.DeskAgentConfig{}); !errors.Is(err, runtime.ErrInvalidRegistration) {
		t.Fatalf("registration without planner = %v, want ErrInvalidRegistration", err)
	}
	if err := desk.RegisterDeskAgent(ctx, rt, desk.DeskAgentConfig{Planner: planner}); err != nil {
		t.Fatalf("register desk: %v", err)
	}
	if err := senior.RegisterSeniorAgent(ctx, rt, senior.SeniorAgentConfig{Planner: planner}); err != nil {
		t.Fatalf("register senior: %v", err)
	}
	if desk.NewClient(rt) == nil {
		t.Fatal("NewClient returned nil")
	}
}

func TestDefinitions(t *testing.T) {
	cases := []struct {
		name      string
		def       runtime.AgentRegistration
		immediate int
		deferred  int
		sources   int
	}{
		{"desk", desk.Definition(), 7, 3, 1},
		{"senior", senior.Definition(), 7, 2, 0},
		{"analyst", analyst.Definition(), 0, 7, 1},
		{"researcher", researcher.Definition(), 3, 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.def
			if len(d.Immediate) != tc.immediate || len(d.Deferred) != tc.deferred || len(d.Registries) != tc.sources {
				t.Fatalf("%d immediate, %d deferred, %d sources; want %d, %d, %d",
					len(d.Immediate), len(d.Deferred), len(d.Registries), tc.immediate, tc.deferred, tc.sources)
			}
			if d.DeferredIndex.Len() != tc.deferred {
				t.Fatalf("index of %d tools", d.DeferredIndex.Len())
			}
		})
	}
	res := analyst.Definition().DeferredIndex.Search("merge duplicate tickets", 1)
	if len(res) != 1 || res[0].Name != string(tickets.MergeTickets) {
		t.Errorf("search for duplicates found %+v, want %s", res, tickets.MergeTickets)
	}
}
