// Package design is the helpdesk design: a Goa API with an HTTP service,
// and the toolset and agent that goa-discovery generates next to it.
package design

import (
	. "github.com/goa-discovery/goa-discovery/dsl"
	. "goa.design/goa/v3/dsl"
)

var _ = API("helpdesk", func() {
	Title("Helpdesk")
	Description("Support tickets over HTTP, and an agent that answers questions about them")
})

// Ticket is a support ticket, shared by the HTTP API and the tools.
var Ticket = Type("Ticket", func() {
	Attribute("id", String, "Ticket identifier", func() { Pattern("^T-[0-9]+$") })
	Attribute("title", String, "What the customer asked")
	Attribute("status", String, "Ticket status", func() { Enum("open", "closed") })
	Required("id", "title", "status")
})

// TicketID is the payload that names a ticket.
var TicketID = Type("TicketID", func() {
	Attribute("id", String, "Ticket identifier", func() { Pattern("^T-[0-9]+$") })
	Required("id")
})

// Tickets are the tools the agent may use; they run in the application.
var Tickets = Toolset("tickets", func() {
	Description("Find, read and close support tickets")
	Tool("get_ticket", "Get a ticket by its identifier", func() {
		Args(TicketID)
		Return(Ticket)
	})
	Tool("search_tickets", "Search open tickets by keywords", func() {
		Args(func() {
			Attribute("query", String, "Keywords to look for in ticket titles")
			Required("query")
		})
		Return(ArrayOf(Ticket))
	})
	Tool("close_ticket", "Close a solved ticket with a resolution note", func() {
		Args(func() {
			Attribute("id", String, "Ticket identifier", func() { Pattern("^T-[0-9]+$") })
			Attribute("resolution", String, "How the ticket was solved")
			Required("id", "resolution")
		})
		Return(Ticket)
	})
})

// Company is the company's tool registry: services publish their toolsets
// in it at run time, agents find them there.
var Company = Registry("company", func() {
	Description("Toolsets published by the company's services")
	URL("http://127.0.0.1:8080")
})

var _ = Service("helpdesk", func() {
	Description("The helpdesk HTTP API and its support agent")
	Method("show", func() {
		Payload(TicketID)
		Result(Ticket)
		HTTP(func() {
			GET("/tickets/{id}")
			Response(StatusOK)
		})
	})
	Method("close", func() {
		Payload(func() {
			Attribute("id", String, "Ticket identifier")
			Attribute("resolution", String, "How the ticket was solved")
			Required("id", "resolution")
		})
		Result(Ticket)
		HTTP(func() {
			POST("/tickets/{id}/close")
			Response(StatusOK)
		})
	})
	Agent("desk", "Answer customer questions about support tickets.", func() {
		Use(Tickets, func() { Deferred("search_tickets", "close_ticket") }) // get_ticket stays immediate
	})
	Agent("analyst", "Answer questions with any tool the company registry holds.", func() {
		Use(Company, func() { Deferred() }) // whatever the registry holds when a run starts
	})
})
