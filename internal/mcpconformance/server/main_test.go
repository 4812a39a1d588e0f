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
	if want := []string{"test_error_handling", "test_reconnection", "test_simple_text"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}

	for _, tc := range []struct {
		tool    string
		isError bool
		text    string // what the text content contains
	}{
		{"test_simple_text", false, `"text":"This is a simple text response for testing."`},
		{"test_error_handling", true, "this tool intentionally returns an error for testing"},
		{"test_reconnection", false, `"text":"Reconnection test completed"`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: map[string]any{}})
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
