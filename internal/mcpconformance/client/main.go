// Command client is the MCP client that the conformance suite's client
// scenarios run: "client URL", with the scenario's name in
// MCP_CONFORMANCE_SCENARIO. It connects to URL over streamable HTTP
// through runtime/mcp, lists the server's tools and calls each with the
// arguments its inputSchema requires (a number 1 for a number or an
// integer, "x" for a string, true for a boolean), then closes the session.
// Any failure exits with status 1.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: client URL")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "client: scenario %q: %v\n", os.Getenv("MCP_CONFORMANCE_SCENARIO"), err)
		os.Exit(1)
	}
}

func run(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	s, err := mcp.Connect(ctx, "conformance", mcp.HTTP(url, nil))
	if err != nil {
		return err
	}
	defer s.Close()
	list, err := s.ListTools(ctx)
	if err != nil {
		return err
	}
	for _, t := range list {
		args, err := arguments(t.InputSchema)
		if err != nil {
			return fmt.Errorf("tool %q: %w", t.Name, err)
		}
		res, err := s.Call(ctx, t.Name, args)
		if err != nil {
			return err
		}
		out, _ := json.Marshal(res.Content)
		fmt.Printf("%s: %s\n", t.Name, out)
	}
	return nil
}

// arguments returns an object with a value for each required property of
// the input schema.
func arguments(schema any) (json.RawMessage, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("inputSchema: %w", err)
	}
	args := map[string]any{}
	sort.Strings(s.Required)
	for _, name := range s.Required {
		switch t := s.Properties[name].Type; t {
		case "number", "integer":
			args[name] = 1
		case "string":
			args[name] = "x"
		case "boolean":
			args[name] = true
		default:
			return nil, fmt.Errorf("required property %q of type %q: the client makes no value of it", name, t)
		}
	}
	return json.Marshal(args)
}
