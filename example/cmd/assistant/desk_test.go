package main

import (
	"context"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
)

func ptr[T any](v T) *T { return &v }

func TestTicketDeskSearch(t *testing.T) {
	cases := []struct {
		name string
		args tickets.SearchTicketsArgs
		want []string
	}{
		{"customer and word", tickets.SearchTicketsArgs{Query: "usage C-7"}, []string{"T-1042"}},
		{"open only", tickets.SearchTicketsArgs{Query: "c-7", Status: ptr("open")}, []string{"T-1042"}},
		{"every ticket of a customer", tickets.SearchTicketsArgs{Query: "C-7"}, []string{"T-1042", "T-1017"}},
		{"limit", tickets.SearchTicketsArgs{Query: "C-7", Limit: ptr(1)}, []string{"T-1042"}},
		{"priority", tickets.SearchTicketsArgs{Query: "seats", Priority: ptr("high")}, nil},
		{"no match", tickets.SearchTicketsArgs{Query: "refund"}, nil},
	}
	d := newTicketDesk()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := d.SearchTickets(context.Background(), &tc.args)
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]string, len(got))
			for i, tk := range got {
				ids[i] = tk.ID
			}
			if strings.Join(ids, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("found %v, want %v", ids, tc.want)
			}
		})
	}
}

func TestTicketDeskChanges(t *testing.T) {
	ctx := context.Background()
	d := newTicketDesk()
	if err := d.CloseTicket(ctx, &tickets.CloseTicketArgs{ID: "T-1042", Resolution: "Usage recount sent to the customer"}); err == nil || !strings.Contains(err.Error(), "is open") {
		t.Fatalf("closing an open ticket: %v", err)
	}
	if _, err := d.UpdateTicket(ctx, &tickets.UpdateTicketArgs{ID: "T-1042", Status: ptr("solved")}); err != nil {
		t.Fatal(err)
	}
	if err := d.CloseTicket(ctx, &tickets.CloseTicketArgs{ID: "T-1042", Resolution: "Usage recount sent to the customer"}); err != nil {
		t.Fatal(err)
	}
	merged, err := d.MergeTickets(ctx, &tickets.MergeTicketsArgs{TargetID: "T-1017", SourceIds: []string{"T-1042"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(merged.Tags, ",") != "exports,billing,usage" {
		t.Errorf("merged tags %v", merged.Tags)
	}
	if _, err := d.MergeTickets(ctx, &tickets.MergeTicketsArgs{TargetID: "T-1017", SourceIds: []string{"T-1017"}}); err == nil {
		t.Error("merged a ticket into itself")
	}
	if _, err := d.GetTicket(ctx, &tickets.GetTicketArgs{ID: "T-9"}); err == nil {
		t.Error("got a ticket that does not exist")
	}
	got, err := d.GetTicket(ctx, &tickets.GetTicketArgs{ID: "T-1042"})
	if err != nil || got.Status != "closed" {
		t.Fatalf("T-1042 = %+v, %v; want closed", got, err)
	}
}
