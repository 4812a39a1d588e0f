package service_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// The forwarder tells a call the provider never saw (nothing listens, so
// the connection was never made) from one that may have reached it and got
// no answer (the connection closed mid-call): only the second is
// ErrNoAnswer, which keeps a cluster from sending the call again. Both are
// provider_unavailable to the caller.
func TestForwardNoAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer hangUp.Close()
	call := &registry.CallRequest{CallID: "c", Tool: "records.lookup", Token: "t", Payload: []byte(`{}`)}
	cases := []struct {
		name     string
		endpoint string
		noAnswer bool
	}{
		{"nothing listens", closed, false},
		{"the provider hangs up", hangUp.URL, true},
	}
	for _, tc := range cases {
		_, err := (&service.HTTPForwarder{}).Forward(context.Background(), tc.endpoint, call)
		if !errors.Is(err, registry.ErrProviderUnavailable) || errors.Is(err, service.ErrNoAnswer) != tc.noAnswer {
			t.Errorf("%s: %v; want provider_unavailable, no answer %v", tc.name, err, tc.noAnswer)
		}
	}
}
