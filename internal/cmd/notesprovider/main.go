// Command notesprovider is the provider of the registry's operator walk
// (.ci/steps/registry-walk, docs/registry.md): it serves the tools of the
// "notes" toolset on a loopback address and prints the toolset's publish
// request, ready for POST /v1/toolsets, on standard output. notes.add
// answers {"saved":true}; notes.slow answers overloaded, so that its calls
// stay pending. It runs until it is stopped.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to serve the tools at")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "notesprovider:", err)
		os.Exit(1)
	}
	payload := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
	req := registry.PublishRequest{
		Toolset: tools.ToolsetSchema{Name: "notes", Version: "1.0.0", Description: "Notes", Tools: []tools.ToolSchema{
			{Name: "notes.add", Description: "Add a note", Payload: payload},
			{Name: "notes.slow", Description: "Add a note when the provider has time", Payload: payload},
		}},
		Revision: "build-1",
		Endpoint: "http://" + ln.Addr().String() + "/tools",
	}
	if err := json.NewEncoder(os.Stdout).Encode(req); err != nil {
		fmt.Fprintln(os.Stderr, "notesprovider:", err)
		os.Exit(1)
	}
	exec := registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		if call.Tool == "notes.slow" {
			return nil, registry.Errorf(registry.CodeOverloaded, "busy")
		}
		return json.RawMessage(`{"saved":true}`), nil
	})
	srv := &http.Server{Handler: registry.ProviderHandler(exec, 0), ReadHeaderTimeout: 5e9}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "notesprovider:", err)
		os.Exit(1)
	}
}
