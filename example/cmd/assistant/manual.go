// The documentation's MCP server of the quickstart: served over streamable
// HTTP on 127.0.0.1, connected as the design's "docs" server, and its
// declared Manual toolset bound to the session with the generated
// docs.Register, which checks the server's tool list against the design.

package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goa-discovery/goa-discovery/example/docserver"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/docs"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// manualServer is the documentation's MCP server and the runtime's session
// with it.
type manualServer struct {
	srv     *http.Server
	url     string
	session *mcp.Session
}

// startManual serves the documentation's MCP server on a free loopback
// port, connects to it and registers the Manual toolset with rt.
func startManual(ctx context.Context, rt *runtime.Runtime) (_ *manualServer, err error) {
	m := &manualServer{}
	defer func() {
		if err != nil {
			err = errors.Join(err, m.close())
		}
	}()
	server := docserver.New()
	mux := http.NewServeMux()
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	var base string
	if m.srv, base, err = serveLoopback(mux); err != nil {
		return nil, fmt.Errorf("MCP server %s: %w", docs.Server, err)
	}
	m.url = base + "/mcp"
	if m.session, err = mcp.Connect(ctx, docs.Server, mcp.HTTP(m.url, nil)); err != nil {
		return nil, err
	}
	if err := docs.Register(ctx, rt, m.session); err != nil {
		return nil, err
	}
	return m, nil
}

// close ends the session and stops the server.
func (m *manualServer) close() error {
	var errs []error
	if m.session != nil {
		errs = append(errs, m.session.Close())
	}
	if m.srv != nil {
		if err := m.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
