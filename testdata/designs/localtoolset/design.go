// Package localtoolset is a golden design: one local toolset with typed
// arguments and results, used by one agent whose tools are all immediate.
package localtoolset

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	note := Type("Note", func() {
		Description("A note attached to a ticket")
		Attribute("id", String, "Note identifier")
		Attribute("body", String, "Note text")
		Attribute("pinned", Boolean, "Whether the note is pinned")
		Attribute("author", String)
		Required("id", "body")
	})
	notes := Toolset("notes", func() {
		Title("Notes")
		Description("Ticket notes")
		Tags("support")
		Tool("add_note", "Add a note to a ticket", func() {
			Title("Add note")
			Tags("write")
			Args(func() {
				Attribute("ticket_id", String, "Ticket identifier")
				Attribute("body", String, "Note text")
				Required("ticket_id", "body")
			})
			Return(note)
		})
		Tool("list_notes", "List the notes of a ticket", func() {
			Args(func() {
				Attribute("ticket_id", String, "Ticket identifier")
				Attribute("limit", Int, "Most notes to return")
				Required("ticket_id")
			})
			Return(ArrayOf(note))
		})
		Tool("ping", "Check that the notes service answers")
	})
	Service("support", func() {
		Agent("helper", "Answer support questions.", func() {
			Use(notes)
		})
	})
}
