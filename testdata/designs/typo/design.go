// Package typo is a design that does not compile: gen must print the
// compiler's error at this file's path relative to where gen runs.
package typo

import (
	. "github.com/goa-discovery/goa-discovery/dsl"
	. "goa.design/goa/v3/dsl"
)

var Records = Toolset("records", func() {
	Description("Customer records")
	Tool("lookup", "Look up a record", func() { Args(Strin) }) // ERR compile-error
})
