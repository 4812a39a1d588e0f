// Package validations is a golden design: argument and result types that
// state every validation a tool schema carries, and arguments that extend a
// type.
package validations

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	address := Type("Address", func() {
		Description("A postal address")
		Attribute("street", String, "Street and number", func() { MinLength(1); MaxLength(200) })
		Attribute("country", String, "ISO 3166-1 alpha-2 country code", func() {
			Pattern("^[A-Z]{2}$")
			Example("FR")
		})
		Required("street", "country")
	})
	account := Type("Account", func() {
		Attribute("customer_id", String, "Customer identifier", func() { Format(FormatUUID) })
		Required("customer_id")
	})
	Toolset("customers", func() {
		Description("Customer accounts")
		Tool("create_customer", "Create a customer account", func() {
			Args(func() {
				Attribute("email", String, "Contact email", func() { Format(FormatEmail) })
				Attribute("tier", String, "Service tier", func() { Enum("free", "pro", "enterprise"); Default("free") })
				Attribute("age", Int32, "Age in years", func() { Minimum(18); Maximum(130) })
				Attribute("score", Float64, "Credit score", func() { ExclusiveMinimum(0); ExclusiveMaximum(1) })
				Attribute("tags", ArrayOf(String), "Labels", func() { MinLength(1); MaxLength(10) })
				Attribute("quotas", MapOf(String, UInt), "Quota per resource", func() { MaxLength(5) })
				Attribute("address", address)
				Attribute("born", String, "Birth date", func() { Format(FormatDate) })
				Attribute("avatar", Bytes, "Avatar image")
				Attribute("extra", Any, "Free-form data")
				Attribute("last_ip", String, "Last known address", func() { Format(FormatIP) })
				Required("email", "tier", "address")
			})
			Return(func() {
				Attribute("id", String, "Customer identifier", func() { Format(FormatUUID) })
				Attribute("created_at", String, "Creation time", func() { Format(FormatDateTime) })
				Attribute("address", address)
				Required("id", "created_at")
			})
		})
		Tool("rename_customer", "Rename a customer account", func() {
			Args(func() {
				Extend(account)
				Attribute("name", String, "New display name", func() { MinLength(1) })
				Required("name")
			})
		})
	})
}
