package main

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsOfTheScenarios calls, over streamable HTTP on loopback, each
// tool that a server scenario of the conformance suite calls, and checks
// the answer the scenario expects of it.
func TestToolsOfTheScenarios(t *testing.T) {
	srv := httptest.NewServer(handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	s, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"json_schema_2020_12_tool", "test_error_handling", "test_reconnection", "test_simple_text"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}

	for _, tc := range []struct {
		tool    string
		args    map[string]any
		isError bool
		text    string // what the text content contains
	}{
		{"test_simple_text", nil, false, `"text":"This is a simple text response for testing."`},
		{"test_error_handling", nil, true, "this tool intentionally returns an error for testing"},
		{"test_reconnection", nil, false, `"text":"Reconnection test completed"`},
		{"json_schema_2020_12_tool", map[string]any{"name": "Ann", "address": map[string]any{"street": "1 Main St", "city": "Lyon"},
			"previous_addresses": []any{map[string]any{"city": "Paris"}}}, false, `name \"Ann\", city \"Lyon\", 1 previous addresses`},
		// The $ref'd definition constrains each place that uses it.
		{"json_schema_2020_12_tool", map[string]any{"previous_addresses": []any{map[string]any{"zip": "75001"}}}, true, "zip"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			args := tc.args
			if args == nil {
				args = map[string]any{}
			}
			res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError {
				t.Errorf("isError %v, want %v", res.IsError, tc.isError)
			}
			if len(res.Content) != 1 {
				t.Fatalf("%d contents, want 1", len(res.Content))
			}
			text, ok := res.Content[0].(*sdk.TextContent)
			if !ok {
				t.Fatalf("content %T, want text", res.Content[0])
			}
			if !strings.Contains(text.Text, tc.text) {
				t.Errorf("text %q does not contain %q", text.Text, tc.text)
			}
		})
	}
}

// TestJSONSchema202012Tool checks what the json-schema-2020-12 scenario
// reads in the list: the tool's inputSchema names the 2020-12 dialect,
// defines "address" under $defs and admits no other properties.
func TestJSONSchema202012Tool(t *testing.T) {
	srv := httptest.NewServer(handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	s, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list.Tools, func(tool *sdk.Tool) bool { return tool.Name == "json_schema_2020_12_tool" })
	if i < 0 {
		t.Fatal("tools/list has no json_schema_2020_12_tool")
	}
	in, ok := list.Tools[i].InputSchema.(map[string]any)
	if !ok {
		t.Fatalf("inputSchema %T, want an object", list.Tools[i].InputSchema)
	}
	if got := in["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("inputSchema $schema %v, want JSON Schema 2020-12", got)
	}
	defs, _ := in["$defs"].(map[string]any)
	if _, ok := defs["address"]; !ok {
		t.Errorf("inputSchema $defs %v, want a definition of address", in["$defs"])
	}
	if got, ok := in["additionalProperties"]; !ok || got != false {
		t.Errorf("inputSchema additionalProperties %v, want false", got)
	}
	out, _ := list.Tools[i].OutputSchema.(map[string]any)
	if got := out["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("outputSchema $schema %v, want JSON Schema 2020-12", got)
	}
}

// TestRefusesAddressesOffLoopback checks the addresses the server listens on.
func TestRefusesAddressesOffLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr string
		err  string // empty: accepted
	}{
		{"127.0.0.1:0", ""},
		{"localhost:8080", ""},
		{"[::1]:0", ""},
		{"0.0.0.0:0", "address 0.0.0.0:0 is not a loopback address"},
		{"example.com:80", "address example.com:80 is not a loopback address"},
		{":8080", "address :8080 is not a loopback address"},
		{"127.0.0.1", "address 127.0.0.1: missing port in address"},
	} {
		err := checkLoopback(tc.addr)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.addr, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s: error %v, want %q", tc.addr, err, tc.err)
		}
	}
}

// TestToolsOfTheGatewayScenarios calls, through the generated MCP gateway
// over streamable HTTP on loopback, each tool that a server scenario run
// against it calls, under the name the scenario calls it by.
func TestToolsOfTheGatewayScenarios(t *testing.T) {
	h, err := gatewayHandler()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	s, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"test_error_handling", "test_simple_text", "tool_search"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	for _, tc := range []struct {
		tool    string
		isError bool
		text    string
	}{
		{"test_simple_text", false, `"text":"This is a simple text response for testing."`},
		{"test_error_handling", true, "this tool intentionally returns an error for testing"},
	} {
		res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		if res.IsError != tc.isError || !strings.Contains(strings.Join(text, "\n"), tc.text) {
			t.Errorf("%s = %q (isError %v), want %q (isError %v)", tc.tool, text, res.IsError, tc.text, tc.isError)
		}
	}
}
