package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestMCPToolsetsAreValidated checks that an agent's MCP toolsets must
// name a server and a toolset.
func TestMCPToolsetsAreValidated(t *testing.T) {
	planner := runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
		return nil, errors.New("not called")
	})
	for _, tc := range []struct {
		name string
		m    runtime.MCPToolset
		err  string
	}{
		{"no server", runtime.MCPToolset{Toolset: "fx"}, "MCP toolset 0: server:"},
		{"no toolset", runtime.MCPToolset{Server: "fixture"}, `MCP toolset 0: server "fixture": toolset:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := runtime.New().RegisterAgent(context.Background(), runtime.AgentRegistration{
				Name: "a", Description: "An agent.", Planner: planner, MCPToolsets: []runtime.MCPToolset{tc.m},
			})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("RegisterAgent: %v, want an error holding %q", err, tc.err)
			}
		})
	}
}
