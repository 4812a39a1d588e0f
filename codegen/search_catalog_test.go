package codegen_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/testdata/designs/deferrednamed"
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpdynamic"
	"github.com/goa-discovery/goa-discovery/testdata/designs/registrysources"
)

// catalogSummary is what TestAgentCatalogs compares of an AgentCatalog.
type catalogSummary struct {
	Agent     string
	Deferred  []tools.Ident
	Immediate []tools.Ident
	Sources   []codegen.CatalogSource
}

// TestAgentCatalogs checks each agent's catalog: its deferred tools, valid
// wire records in the generated DeferredTools order (selection order), its
// immediate ones, and its run-time sources in use order.
func TestAgentCatalogs(t *testing.T) {
	tests := []struct {
		name   string
		design func()
		want   []catalogSummary
	}{
		{"registry sources", registrysources.Design, []catalogSummary{
			{Agent: "clerk", Sources: []codegen.CatalogSource{
				{Registry: "company", Toolset: "billing", Version: "1.4.0"},
				{Registry: "company", Toolset: "crm", Deferred: true},
			}},
			{Agent: "scout", Sources: []codegen.CatalogSource{
				{Registry: "partners", Deferred: true},
				{Registry: "company", Toolset: "billing", Version: "1.4.0", Deferred: true},
			}},
		}},
		{"named deferred tools", deferrednamed.Design, []catalogSummary{
			{Agent: "editor", Deferred: []tools.Ident{"files.archive", "files.delete"}, Immediate: []tools.Ident{"files.read", "files.write"}},
		}},
		{"MCP server listing its tools", mcpdynamic.Design, []catalogSummary{
			{Agent: "caller", Sources: []codegen.CatalogSource{{MCPServer: "everything", Toolset: "everything"}}},
			{Agent: "tinkerer", Sources: []codegen.CatalogSource{
				{MCPServer: "everything", Toolset: "everything", Deferred: true},
				{Registry: "company", Deferred: true},
			}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := designtest.Run(t, tt.design); err != nil {
				t.Fatalf("design: %v", err)
			}
			all, err := codegen.AgentCatalogs()
			if err != nil {
				t.Fatal(err)
			}
			got := make([]catalogSummary, len(all))
			for i, c := range all {
				got[i] = catalogSummary{Agent: c.Agent, Immediate: c.Immediate, Sources: c.Sources}
				for _, ts := range c.Deferred {
					if err := ts.Validate(); err != nil {
						t.Errorf("agent %q: %v", c.Agent, err)
					}
					got[i].Deferred = append(got[i].Deferred, ts.Name)
				}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("catalogs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAgentCatalogsRefusesFailedEvaluation(t *testing.T) {
	if _, err := designtest.Run(t, registrysources.Design); err != nil {
		t.Fatalf("design: %v", err)
	}
	eval.Context.Errors = eval.MultiError{{GoError: errors.New("bad design")}}
	t.Cleanup(func() { eval.Context.Errors = nil })
	if _, err := codegen.AgentCatalogs(); !errors.Is(err, codegen.ErrNotEvaluated) {
		t.Fatalf("AgentCatalogs after a failed evaluation = %v, want ErrNotEvaluated", err)
	}
}
