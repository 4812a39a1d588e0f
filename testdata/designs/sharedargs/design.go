// Package sharedargs is a golden design: a toolset whose tools share one
// argument type, so that only a dispatch by tool name tells their calls
// apart. It also has a tool without arguments and tools without results.
package sharedargs

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	ticketID := Type("TicketID", func() {
		Description("Names a ticket")
		Attribute("id", String, "Ticket identifier", func() { Pattern("^T-[0-9]+$") })
		Required("id")
	})
	ticket := Type("Ticket", func() {
		Description("A support ticket")
		Attribute("id", String, "Ticket identifier")
		Attribute("status", String, "Ticket status", func() { Enum("open", "closed") })
		Required("id", "status")
	})
	tickets := Toolset("tickets", func() {
		Description("Read, close and reopen support tickets")
		Tool("get_ticket", "Get a ticket by its identifier", func() {
			Args(ticketID)
			Return(ticket)
		})
		Tool("close_ticket", "Close a ticket", func() {
			Args(ticketID)
			Return(ticket)
		})
		Tool("reopen_ticket", "Reopen a closed ticket", func() {
			Args(ticketID)
		})
		Tool("count_open", "Count the open tickets", func() {
			Return(Int)
		})
		Tool("purge_closed", "Delete every closed ticket")
	})
	Service("support", func() {
		Agent("clerk", "Keep the tickets in order.", func() {
			Use(tickets)
		})
	})
}
