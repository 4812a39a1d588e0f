package design

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Ticket is a support ticket.
var Ticket = Type("Ticket", func() {
	Description("A support ticket")
	Attribute("id", String, "Ticket identifier", func() { Pattern("^T-[0-9]+$"); Example("T-1042") })
	Attribute("subject", String, "One-line summary", func() { MaxLength(200) })
	Attribute("status", String, "Workflow status", func() { Enum("open", "pending", "solved", "closed") })
	Attribute("priority", String, "Urgency", func() { Enum("low", "normal", "high", "urgent") })
	Attribute("customer_id", String, "Customer who opened the ticket")
	Attribute("tags", ArrayOf(String), "Labels")
	Attribute("created_at", String, "Creation time", func() { Format(FormatDateTime) })
	Required("id", "subject", "status", "priority", "customer_id", "created_at")
})

// Customer is a customer account.
var Customer = Type("Customer", func() {
	Description("A customer account")
	Attribute("id", String, "Customer identifier")
	Attribute("name", String, "Display name")
	Attribute("email", String, "Contact email", func() { Format(FormatEmail) })
	Attribute("plan", String, "Subscription plan", func() { Enum("free", "team", "enterprise") })
	Attribute("seats", Int, "Licensed seats", func() { Minimum(1) })
	Required("id", "name", "email", "plan")
})

// Article is a knowledge base article.
var Article = Type("Article", func() {
	Description("A knowledge base article")
	Attribute("slug", String, "Article slug")
	Attribute("title", String, "Article title")
	Attribute("summary", String, "First paragraph")
	Attribute("score", Float64, "Relevance to the query", func() { Minimum(0); Maximum(1) })
	Required("slug", "title")
})

// Tickets manages support tickets.
var Tickets = Toolset("tickets", func() {
	Title("Tickets")
	Description("Create, find, update and merge support tickets")
	Tags("support")
	Tool("get_ticket", "Get a ticket by its identifier", func() {
		Args(func() {
			Attribute("id", String, "Ticket identifier", func() { Pattern("^T-[0-9]+$") })
			Required("id")
		})
		Return(Ticket)
	})
	Tool("search_tickets", "Search tickets by keywords, status and priority", func() {
		Args(func() {
			Attribute("query", String, "Keywords", func() { MinLength(1) })
			Attribute("status", String, "Only tickets with this status", func() { Enum("open", "pending", "solved", "closed") })
			Attribute("priority", String, "Only tickets with this priority", func() { Enum("low", "normal", "high", "urgent") })
			Attribute("limit", Int, "Most tickets to return", func() { Minimum(1); Maximum(100); Default(20) })
			Required("query")
		})
		Return(ArrayOf(Ticket))
	})
	Tool("update_ticket", "Change the status, priority or tags of a ticket", func() {
		Tags("write")
		Args(func() {
			Attribute("id", String, "Ticket identifier")
			Attribute("status", String, "New status", func() { Enum("open", "pending", "solved", "closed") })
			Attribute("priority", String, "New priority", func() { Enum("low", "normal", "high", "urgent") })
			Attribute("tags", ArrayOf(String), "Tags to set", func() { MaxLength(20) })
			Required("id")
		})
		Return(Ticket)
	})
	Tool("merge_tickets", "Merge duplicate tickets into one", func() {
		Tags("write")
		Args(func() {
			Attribute("target_id", String, "Ticket that remains")
			Attribute("source_ids", ArrayOf(String), "Tickets merged into the target", func() { MinLength(1); MaxLength(10) })
			Required("target_id", "source_ids")
		})
		Return(Ticket)
	})
	Tool("close_ticket", "Close a solved ticket with a resolution note", func() {
		Tags("write")
		Args(func() {
			Attribute("id", String, "Ticket identifier")
			Attribute("resolution", String, "What solved the problem", func() { MinLength(10) })
			Required("id", "resolution")
		})
	})
})

// Customers reads customer accounts.
var Customers = Toolset("customers", func() {
	Description("Customer accounts and their usage")
	Tool("get_customer", "Get a customer account", func() {
		Args(func() {
			Attribute("id", String, "Customer identifier")
			Required("id")
		})
		Return(Customer)
	})
	Tool("customer_usage", "Report a customer's usage per product over a period", func() {
		Args(func() {
			Attribute("id", String, "Customer identifier")
			Attribute("from", String, "First day", func() { Format(FormatDate) })
			Attribute("to", String, "Last day", func() { Format(FormatDate) })
			Required("id", "from", "to")
		})
		Return(MapOf(String, Int64), "Usage count per product")
	})
})

// Knowledge searches the knowledge base.
var Knowledge = Toolset("knowledge", func() {
	Description("The support knowledge base")
	Tool("search_articles", "Search knowledge base articles", func() {
		Args(func() {
			Attribute("query", String, "Question or keywords")
			Attribute("limit", Int, "Most articles to return", func() { Minimum(1); Maximum(20) })
			Required("query")
		})
		Return(ArrayOf(Article))
	})
	Tool("get_article", "Get the full text of an article", func() {
		Args(func() {
			Attribute("slug", String, "Article slug")
			Required("slug")
		})
		Return(String, "Article text in Markdown")
	})
})

// Escalation is answered by the escalation agent.
var Escalation = Toolset("escalation", func() {
	Description("Escalate hard cases to the senior support agent")
	Tool("escalate", "Hand a ticket to senior support with a summary", func() {
		Args(func() {
			Attribute("ticket_id", String, "Ticket identifier")
			Attribute("summary", String, "What was tried so far")
			Required("ticket_id", "summary")
		})
		Return(String, "Senior support's answer")
	})
})

// Company is the company tool registry.
var Company = Registry("company", func() {
	Description("Company-wide tool registry")
	URL("https://tools.example.com")
})

// Payments is the payments toolset published in the company registry.
var Payments = Toolset(FromRegistry(Company, "payments"), func() {
	Version("2.3.0")
})

// Manual holds the tools of the product documentation's MCP server, which the
// application connects at run time under the name "docs"; the design
// declares their schemas, and registration checks them against the
// server's list.
var Manual = Toolset(FromExternalMCP("docs", "docs"), func() {
	Description("Product documentation served over MCP")
	Tool("search_docs", "Search the product documentation by keywords", func() {
		Args(func() {
			Attribute("query", String, "Keywords", func() { MinLength(1) })
			Required("query")
		})
		Return(func() {
			Attribute("pages", ArrayOf(String), "Paths of the matching pages")
			Required("pages")
		})
	})
	Tool("read_doc", "Read a documentation page", func() { // answers with the page's text
		Args(func() {
			Attribute("path", String, "Path of the page")
			Required("path")
		})
	})
})

var _ = Service("support", func() {
	Agent("desk", "Answer customer support tickets.", func() {
		Use(Tickets, func() { Deferred("merge_tickets", "close_ticket") })
		Use(Customers, func() { Deferred("customer_usage") })
		Use(Knowledge)
		Use(Escalation)
		Use(Payments, func() { Deferred() })
	})
	Agent("senior", "Resolve escalated support cases.", func() {
		Export(Escalation)
		Use(Tickets)
		Use(Customers)
		Use(Knowledge, func() { Deferred() })
	})
	Agent("researcher", "Answer product questions from the documentation.", func() {
		Use(Manual, func() { Deferred("read_doc") }) // search_docs stays immediate
		Use(Knowledge)
	})
	Agent("analyst", "Analyze support trends with any company tool.", func() {
		Use(Tickets, func() { Deferred() })
		Use(Manual, func() { Deferred() }) // the documentation's MCP tools, found by search
		Use(Company, func() { Deferred() })
	})
})
