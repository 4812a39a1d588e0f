package dsl_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// validDesign uses every DSL word once, with Goa's own words on the
// goa-discovery expressions.
func validDesign() {
	record := Type("Record", func() {
		Attribute("id", String)
		Attribute("name", String)
		Required("id")
	})
	company := Registry("company", func() {
		Description("Company tool registry")
		URL("https://registry.example")
		Meta("owner", "platform")
	})
	records := Toolset("records", func() {
		Title("Records")
		Description("Customer records")
		Tags("crm", "records")
		Meta("team", "crm")
		PublishTo(company)
		Tool("lookup", "Look up a record by id", func() {
			Title("Lookup")
			Tags("read")
			Args(func() { Attribute("id", String); Required("id") })
			Return(record)
		})
		Tool("search", "Search records by keywords", func() {
			Args(record, "Keywords")
			Return(ArrayOf(record))
		})
		Tool("analyze", "Analyze a set of records", func() { Return(String, "A summary") })
	})
	remote := Toolset(FromRegistry(company, "billing"), func() { Version("1.2.3-rc.1+build.5") })
	named := Toolset("ledger", FromRegistry(company, "ledger"))
	planner := Toolset("planner", func() {
		Tool("plan", "Plan a multi-step task")
	})
	Service("assistant", func() {
		Agent("assistant", "Find and analyze records.", func() {
			Meta("tier", "gold")
			Use(records, func() {
				Deferred("search")
				Deferred("analyze")
			})
			Use(remote, func() { Deferred(); Deferred() })
			Use(planner, func() { Deferred("plan", "replan") })
		})
		Agent("planner", "Plan tasks.", func() {
			Export(planner, func() { Tool("replan", "Revise a plan") })
			Export("planner-admin", func() { Tool("reset", "Reset the planner") })
			Use(named)
		})
		Agent("generalist", "Use the company catalog.", func() {
			Use(company, func() { Deferred() })
		})
	})
}

func TestValidDesign(t *testing.T) {
	root, err := designtest.Run(t, validDesign)
	if err != nil {
		t.Fatalf("valid design: %v", err)
	}
	byName := func(name string) *expr.ToolsetExpr {
		for _, ts := range root.Toolsets {
			if ts.Name == name {
				return ts
			}
		}
		t.Fatalf("toolset %q not found", name)
		return nil
	}
	records := byName("records")
	got := map[string]any{
		"registry url":      root.Registries[0].URL,
		"registry desc":     root.Registries[0].Description,
		"registry meta":     root.Registries[0].Meta["owner"],
		"records title":     records.Title,
		"records desc":      records.Description,
		"records tags":      records.TagValues(),
		"records meta":      records.Meta["team"],
		"records publishes": records.Publications[0].Registry.Name,
		"lookup title":      records.Tool("lookup").Title,
		"lookup tags":       records.Tool("lookup").TagValues(),
		"lookup args":       records.Tool("lookup").Args.Type.Name(),
		"lookup return":     records.Tool("lookup").Return.Type.Name(),
		"search args":       records.Tool("search").Args.Type.Name(),
		"search args desc":  records.Tool("search").Args.Description,
		"analyze args nil":  records.Tool("analyze").Args == nil,
		"analyze return":    records.Tool("analyze").Return.Type.Name(),
		"billing version":   byName("billing").Version(),
		"billing source":    byName("billing").Source.Toolset,
		"ledger source":     byName("ledger").Source.Toolset,
		"planner tools":     toolNames(byName("planner").Tools),
		"planner exporter":  byName("planner").ExportedBy.Name,
		"admin exporter":    byName("planner-admin").ExportedBy.Name,
		"agent service":     root.Agents[0].Service.Name,
		"agent meta":        root.Agents[0].Meta["tier"],
		"records deferred":  toolNames(root.Agents[0].Uses[0].DeferredTools()),
		"billing defer all": root.Agents[0].Uses[1].DeferAll(),
		"planner deferred":  toolNames(root.Agents[0].Uses[2].DeferredTools()),
		"ledger defer all":  root.Agents[1].Uses[0].DeferAll(),
		"company defer all": root.Agents[2].Uses[0].DeferAll(),
	}
	want := map[string]any{
		"registry url":      "https://registry.example",
		"registry desc":     "Company tool registry",
		"registry meta":     []string{"platform"},
		"records title":     "Records",
		"records desc":      "Customer records",
		"records tags":      []string{"crm", "records"},
		"records meta":      []string{"crm"},
		"records publishes": "company",
		"lookup title":      "Lookup",
		"lookup tags":       []string{"read"},
		"lookup args":       "object",
		"lookup return":     "Record",
		"search args":       "Record",
		"search args desc":  "Keywords",
		"analyze args nil":  true,
		"analyze return":    "string",
		"billing version":   "1.2.3-rc.1+build.5",
		"billing source":    "billing",
		"ledger source":     "ledger",
		"planner tools":     []string{"plan", "replan"},
		"planner exporter":  "planner",
		"admin exporter":    "planner",
		"agent service":     "assistant",
		"agent meta":        []string{"gold"},
		"records deferred":  []string{"search", "analyze"},
		"billing defer all": true,
		"planner deferred":  []string{"plan", "replan"},
		"ledger defer all":  false,
		"company defer all": true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("valid design (-want +got):\n%s", diff)
	}
}

// toolNames returns the names of tools, nil for no tools.
func toolNames(tools []*expr.ToolExpr) []string {
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	return names
}
