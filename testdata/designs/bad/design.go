// Package design is an invalid goa-discovery design used by the gen command
// tests: every marked line breaks a rule, and gen must report all of them in
// one run.
package design

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Records holds the customer record tools.
var Records = Toolset("records", func() {
	Tool("lookup", "Look up a record by id")
	Tool("search", "Search records by keywords")
	Deferred("search") // ERR toolset-deferred
})

// Company is the company tool registry.
var Company = Registry("company", func() {
	URL("registry.example") // ERR url
})

// Billing is the billing toolset published in the company registry.
var Billing = Toolset(FromRegistry(Company, "billing"), func() {
	Version("1.2") // ERR version
})

var _ = Service("assistant", func() {
	Agent("assistant", "Find records.", func() {
		Use(Records, func() {
			Deferred("Search") // ERR go-name
		})
		Use(Billing, func() {
			Deferred("invoice") // ERR registry-named
		})
		Use(Company) // ERR overlap
	})
})
