package dsl_test

import (
	"testing"

	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// TestGoaServiceDirRule checks that a Goa service whose generated package
// directory is one of goa-discovery's is an error at the service's DSL.
func TestGoaServiceDirRule(t *testing.T) {
	runDesignCases(t, []designCase{
		{"service named like the agents directory", func() {
			records := recordsToolset()
			Service("agents", func() { // ERR agents
				Agent("agent", "An agent.", func() { Use(records) })
			})
		}, []wantErr{{`service "agents": Goa generates this service into gen/agents, where goa-discovery generates its agents packages`, "agents"}}},
		{"service whose Go name maps to a generated directory", func() {
			Service("Toolsets", func() { // ERR toolsets
				Method("list", func() {})
			})
			Service("registries", func() { // ERR registries
				Method("list", func() {})
			})
			Service("agent", func() { Method("list", func() {}) }) // a different directory
		}, []wantErr{
			{`service "Toolsets": Goa generates this service into gen/toolsets`, "toolsets"},
			{`service "registries": Goa generates this service into gen/registries`, "registries"},
		}},
	})
}
