package integration

import (
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal/integration/internal/devserver"
)

// testNamespace is the namespace of the tests' servers.
const testNamespace = "integration"

// testServer is a server in process for a test, stopped when it ends.
type testServer struct {
	hostPort string
	client   client.Client
}

// startServer starts a server in memory on a free port of 127.0.0.1, the
// way cmd/devserver does, and dials it.
func startServer(t *testing.T) *testServer {
	t.Helper()
	srv, err := devserver.Start(devserver.Config{Addr: "127.0.0.1:0", Namespaces: []string{testNamespace}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("stop the server: %v", err)
		}
	})
	c, err := client.Dial(client.Options{HostPort: srv.HostPort(), Namespace: testNamespace, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &testServer{hostPort: srv.HostPort(), client: c}
}
