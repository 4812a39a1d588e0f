// Command server is the MCP server that the conformance suite's server
// scenarios test: the Goa service of ./design, implemented here, served by
// the MCP server that goa gen writes (gen/mcpservers/conformancemcp) over
// streamable HTTP. "server [-addr HOST:PORT]" listens on a loopback address
// (by default a free port), prints the server's URL on stdout and serves
// until it receives SIGINT or SIGTERM. With -gateway it serves the MCP
// gateway "hub" of the design (gen/mcpgateways/hub) instead, in front of
// the service "gatewayed".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	conformance "github.com/goa-discovery/goa-discovery/internal/mcpconformance/server/gen/conformance"
	gatewayed "github.com/goa-discovery/goa-discovery/internal/mcpconformance/server/gen/gatewayed"
	"github.com/goa-discovery/goa-discovery/internal/mcpconformance/server/gen/mcpgateways/hub"
	"github.com/goa-discovery/goa-discovery/internal/mcpconformance/server/gen/mcpservers/conformancemcp"
	"github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"
)

// service implements the Goa service of the design.
type service struct{}

func (service) SimpleText(context.Context) (*conformance.SimpleTextResult, error) {
	return &conformance.SimpleTextResult{Text: "This is a simple text response for testing."}, nil
}

func (service) ErrorHandling(context.Context) (*conformance.ErrorHandlingResult, error) {
	return nil, errors.New("this tool intentionally returns an error for testing")
}

func (service) Reconnection(ctx context.Context) (*conformance.ReconnectionResult, error) {
	select {
	case <-time.After(100 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &conformance.ReconnectionResult{Text: "Reconnection test completed"}, nil
}

// JSONSchema202012 answers with what it received: the tool exists for the
// schema it lists (the json-schema-2020-12 scenario only lists it).
func (service) JSONSchema202012(_ context.Context, p *conformance.JSONSchema202012Payload) (*conformance.JSONSchema202012Result, error) {
	name, city := "", ""
	if p.Name != nil {
		name = *p.Name
	}
	if p.Address != nil && p.Address.City != nil {
		city = *p.Address.City
	}
	return &conformance.JSONSchema202012Result{
		Text: fmt.Sprintf("name %q, city %q, %d previous addresses", name, city, len(p.PreviousAddresses)),
	}, nil
}

// gatewayedService implements the Goa service that the gateway serves.
type gatewayedService struct{}

func (gatewayedService) SimpleText(context.Context) (*gatewayed.SimpleTextResult, error) {
	return &gatewayed.SimpleTextResult{Text: "This is a simple text response for testing."}, nil
}

func (gatewayedService) ErrorHandling(context.Context) (*gatewayed.ErrorHandlingResult, error) {
	return nil, errors.New("this tool intentionally returns an error for testing")
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback `address` to listen on")
	viaGateway := flag.Bool("gateway", false, "serve the generated MCP gateway \"hub\" instead of the service's MCP server")
	flag.Parse()
	h := handler()
	if *viaGateway {
		g, err := gatewayHandler()
		if err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
			os.Exit(1)
		}
		h = g
	}
	if err := run(*addr, h); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// handler serves the generated MCP server of the service at /mcp.
func handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", conformancemcp.NewHTTPHandler(conformance.NewEndpoints(service{})))
	return mux
}

// gatewayHandler serves the generated MCP gateway at /mcp.
func gatewayHandler() (http.Handler, error) {
	g, err := hub.New(hub.Servers{GatewayedEndpoints: gatewayed.NewEndpoints(gatewayedService{})}, gateway.Options{})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", g.Handler(nil))
	return mux, nil
}

// checkLoopback returns an error unless addr is HOST:PORT with HOST
// localhost or a loopback IP address.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("address %s is not a loopback address", addr)
	}
	return nil
}

func run(addr string, h http.Handler) error {
	if err := checkLoopback(addr); err != nil {
		return err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("http://%s/mcp\n", l.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
