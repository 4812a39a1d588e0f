package service

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestForwarderRefusesToDialItself: the default forwarder's dialer refuses
// the registry's own address after name resolution, whatever the endpoint
// was when it was published; the error names the tool only.
func TestForwarderRefusesToDialItself(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { _ = http.Serve(ln, http.NotFoundHandler()) }()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, self := range []string{ln.Addr().String(), ":" + port} {
		o := options{self: []string{self}}
		rules, err := buildRules(&o)
		if err != nil {
			t.Fatal(err)
		}
		f := &HTTPForwarder{Client: newForwardClient(rules, nil)}
		for _, endpoint := range []string{"http://" + ln.Addr().String() + "/x", "http://localhost:" + port + "/x"} {
			_, err = f.Forward(context.Background(), endpoint, &registry.CallRequest{CallID: "c", Tool: "a.b", Token: "t", Payload: []byte(`{}`)})
			var e *registry.Error
			if !errors.As(err, &e) || !errors.Is(err, errSelfAddress) || e.Message != `provider of "a.b" could not run call "c": its endpoint is the registry's own address` {
				t.Fatalf("self %s, endpoint %s: %v", self, endpoint, err)
			}
		}
	}
}
