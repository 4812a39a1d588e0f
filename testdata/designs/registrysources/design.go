// Package registrysources is a golden design: registry toolsets pinned to
// versions, a whole registry deferred, and agents that share sources.
package registrysources

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	company := Registry("company", func() {
		Description("Company tool registry")
		URL("https://registry.example.com")
	})
	partners := Registry("partners", func() {
		URL("https://partners.example.com/tools")
	})
	billing := Toolset(FromRegistry(company, "billing"), func() { Version("1.4.0") })
	crm := Toolset("crm", FromRegistry(company, "crm"))
	Service("office", func() {
		Agent("clerk", "Handle invoices and customers.", func() {
			Use(billing)
			Use(crm, func() { Deferred() })
		})
		Agent("scout", "Find partner tools.", func() {
			Use(partners, func() { Deferred() })
			Use(billing, func() { Deferred() })
		})
	})
}
