package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// TestAccountsExecuteTool calls the accounts through the generated
// customers.RegistryExecutor, the executor that the provider endpoint
// serves.
func TestAccountsExecuteTool(t *testing.T) {
	cases := []struct {
		name    string
		tool    tools.Ident
		payload string
		want    string
		wantErr string
		invalid bool
	}{
		{"usage", customers.CustomerUsage, `{"id":"C-7","from":"2026-11-01","to":"2026-11-30"}`, `{"api_calls":1284000,"exports":312,"seats_active":37}`, "", false},
		{"customer", customers.GetCustomer, `{"id":"C-7"}`, `{"id":"C-7","name":"Northwind Traders","email":"ops@northwind.example","plan":"team","seats":40}`, "", false},
		{"unknown customer", customers.GetCustomer, `{"id":"C-8"}`, "", "no customer C-8", false},
		{"other period", customers.CustomerUsage, `{"id":"C-7","from":"2026-10-01","to":"2026-10-31"}`, "", "not 2026-10-01 to 2026-10-31", false},
		{"no usage", customers.CustomerUsage, `{"id":"C-8","from":"2026-11-01","to":"2026-11-30"}`, "", "no usage recorded for customer C-8", false},
		{"unknown property", customers.CustomerUsage, `{"id":"C-7","from":"2026-11-01","to":"2026-11-30","product":"api"}`, "", "", true},
		{"wrong type", customers.GetCustomer, `{"id":7}`, "", "", true},
		{"missing argument", customers.CustomerUsage, `{"id":"C-7"}`, "", "", true},
		{"unknown tool", "customers.delete_customer", `{"id":"C-7"}`, "", `no tool "customers.delete_customer"`, false},
	}
	a := customers.RegistryExecutor(newAccounts())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.ExecuteTool(context.Background(), &registry.CallRequest{CallID: "c1", Tool: tc.tool, Token: "reg1-x", Payload: json.RawMessage(tc.payload)})
			switch {
			case tc.invalid:
				if !errors.Is(err, tools.ErrPayloadInvalid) {
					t.Fatalf("error %v, want ErrPayloadInvalid", err)
				}
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case string(got) != tc.want:
				t.Fatalf("result %s, want %s", got, tc.want)
			}
		})
	}
}

func TestCompanyRegistryPublishesGeneratedToolset(t *testing.T) {
	ctx := context.Background()
	reg, err := startCompanyRegistry(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := reg.close(); err != nil {
			t.Error(err)
		}
	}()
	cat, err := reg.client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Toolsets) != 1 {
		t.Fatalf("registry lists %d toolsets, want 1", len(cat.Toolsets))
	}
	got := cat.Toolsets[0]
	if got.Token != reg.published.Token || got.Toolset.Name != customers.Name || len(got.Toolset.Tools) != len(customers.ToolSchemas()) {
		t.Fatalf("registry holds %s with %d tools under %s, want the published %s", got.Toolset.Name, len(got.Toolset.Tools), got.Token, reg.published.Token)
	}
	res, err := reg.client.CallResolvedTool(ctx, &registry.CallRequest{
		CallID: "usage-1", Tool: customers.CustomerUsage, Token: got.Token,
		Payload: json.RawMessage(`{"id":"C-7","from":"2026-11-01","to":"2026-11-30"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Result) != `{"api_calls":1284000,"exports":312,"seats_active":37}` {
		t.Fatalf("call through the registry returned %+v", res)
	}
}
