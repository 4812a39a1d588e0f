// The local side of the quickstart: the executor of the generated tickets
// toolset, registered in the runtime with the generated helper.

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
)

// ticketDesk is the local executor of the generated tickets toolset: a
// small in-memory ticket store. It is safe for concurrent use.
type ticketDesk struct {
	mu      sync.Mutex
	tickets []tickets.Ticket
}

var _ tickets.Executor = (*ticketDesk)(nil)

// newTicketDesk returns a desk holding the example's tickets.
func newTicketDesk() *ticketDesk {
	return &ticketDesk{tickets: []tickets.Ticket{
		{ID: "T-1042", Subject: "API usage in November is double what we expected", Status: "open", Priority: "high",
			CustomerID: "C-7", Tags: []string{"billing", "usage"}, CreatedAt: "2026-11-28T09:12:00Z"},
		{ID: "T-1017", Subject: "Export to CSV times out", Status: "solved", Priority: "normal",
			CustomerID: "C-7", Tags: []string{"exports"}, CreatedAt: "2026-11-03T15:40:00Z"},
		{ID: "T-0998", Subject: "Cannot invite new seats", Status: "open", Priority: "normal",
			CustomerID: "C-12", Tags: []string{"seats"}, CreatedAt: "2026-10-21T11:05:00Z"},
	}}
}

// find returns the index of ticket id, or -1.
func (d *ticketDesk) find(id string) int {
	return slices.IndexFunc(d.tickets, func(t tickets.Ticket) bool { return t.ID == id })
}

// GetTicket returns one ticket.
func (d *ticketDesk) GetTicket(_ context.Context, args *tickets.GetTicketArgs) (*tickets.Ticket, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := d.find(args.ID)
	if i < 0 {
		return nil, fmt.Errorf("no ticket %s", args.ID)
	}
	t := d.tickets[i]
	return &t, nil
}

// SearchTickets returns the tickets that match every word of the query in
// their subject, customer or tags, and the status and priority filters.
func (d *ticketDesk) SearchTickets(_ context.Context, args *tickets.SearchTicketsArgs) ([]*tickets.Ticket, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	limit := 20
	if args.Limit != nil {
		limit = *args.Limit
	}
	words := strings.Fields(strings.ToLower(args.Query))
	out := []*tickets.Ticket{}
	for _, t := range d.tickets {
		if len(out) == limit {
			break
		}
		if args.Status != nil && t.Status != *args.Status || args.Priority != nil && t.Priority != *args.Priority {
			continue
		}
		text := strings.ToLower(t.Subject + " " + t.CustomerID + " " + strings.Join(t.Tags, " "))
		if !matchesAll(text, words) {
			continue
		}
		t := t
		out = append(out, &t)
	}
	return out, nil
}

// matchesAll reports whether text holds every word.
func matchesAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// UpdateTicket changes a ticket's status, priority or tags.
func (d *ticketDesk) UpdateTicket(_ context.Context, args *tickets.UpdateTicketArgs) (*tickets.Ticket, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := d.find(args.ID)
	if i < 0 {
		return nil, fmt.Errorf("no ticket %s", args.ID)
	}
	t := &d.tickets[i]
	if args.Status != nil {
		t.Status = *args.Status
	}
	if args.Priority != nil {
		t.Priority = *args.Priority
	}
	if args.Tags != nil {
		t.Tags = slices.Clone(args.Tags)
	}
	out := *t
	return &out, nil
}

// MergeTickets closes the source tickets into the target, which gets
// their tags.
func (d *ticketDesk) MergeTickets(_ context.Context, args *tickets.MergeTicketsArgs) (*tickets.Ticket, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ti := d.find(args.TargetID)
	if ti < 0 {
		return nil, fmt.Errorf("no ticket %s", args.TargetID)
	}
	for _, id := range args.SourceIds {
		si := d.find(id)
		if si < 0 || id == args.TargetID {
			return nil, fmt.Errorf("cannot merge ticket %s into %s", id, args.TargetID)
		}
	}
	for _, id := range args.SourceIds {
		src := &d.tickets[d.find(id)]
		src.Status = "closed"
		for _, tag := range src.Tags {
			if !slices.Contains(d.tickets[ti].Tags, tag) {
				d.tickets[ti].Tags = append(d.tickets[ti].Tags, tag)
			}
		}
	}
	out := d.tickets[ti]
	return &out, nil
}

// CloseTicket closes a solved ticket.
func (d *ticketDesk) CloseTicket(_ context.Context, args *tickets.CloseTicketArgs) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := d.find(args.ID)
	if i < 0 {
		return fmt.Errorf("no ticket %s", args.ID)
	}
	if d.tickets[i].Status != "solved" {
		return fmt.Errorf("ticket %s is %s, only a solved ticket can be closed", args.ID, d.tickets[i].Status)
	}
	d.tickets[i].Status = "closed"
	return nil
}
