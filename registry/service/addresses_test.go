package service_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestAllowlistAfterNormalization is the bypass: with the
// allowlist "http://127.0.0.1:18090/tools", endpoints that climb out of
// /tools with dot segments, raw or percent-encoded, were accepted (201)
// and forwarded as written. They are refused now, and accepted endpoints
// are stored and forwarded in their normalized form. Nothing is dialed:
// the forwarder records the endpoint it is given.
func TestAllowlistAfterNormalization(t *testing.T) {
	fwd := &recordingForwarder{}
	h := newHarness(t, service.WithEndpointAllowlist("http://127.0.0.1:18090/tools"), service.WithForwarder(fwd))
	for i, endpoint := range []string{
		"http://127.0.0.1:18090/tools/../count",
		"http://127.0.0.1:18090/tools/%2e%2e/count",
		"http://127.0.0.1:18090/tools/%2E%2E/v1/calls",
		"http://127.0.0.1:18090/tools/./../count",
		"http://127.0.0.1:18090/tools/a/../../count",
		"http://127.0.0.1:18090/toolsx",
	} {
		_, err := h.client.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: revision(i), Endpoint: endpoint})
		if !errors.Is(err, registry.ErrEndpointRefused) || !strings.Contains(err.Error(), "under no prefix") {
			t.Errorf("endpoint %s: %v, want endpoint_refused under no prefix", endpoint, err)
		}
	}
	for i, tc := range []struct{ endpoint, stored string }{
		{"http://127.0.0.1:018090/tools/x", "http://127.0.0.1:18090/tools/x"},
		{"HTTP://127.0.0.1:18090/tools/a/../%78", "http://127.0.0.1:18090/tools/x"},
		{"http://127.0.0.1:18090/tools/./y/.", "http://127.0.0.1:18090/tools/y/"},
	} {
		res, err := h.client.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: revision(10 + i), Endpoint: tc.endpoint})
		if err != nil || res.Registration.Endpoint != tc.stored {
			t.Fatalf("endpoint %s: %+v, %v; want stored as %s", tc.endpoint, res, err, tc.stored)
		}
		again, err := h.client.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: revision(10 + i), Endpoint: tc.stored})
		if err != nil || again.Status != registry.Unchanged {
			t.Fatalf("the normalized form of %s published again: %+v, %v; want unchanged", tc.endpoint, again, err)
		}
		if _, err := h.client.CallResolvedTool(context.Background(), &registry.CallRequest{CallID: revision(20 + i), Tool: "records.lookup", Token: res.Registration.Token, Payload: []byte(`{"id":"a"}`)}); err != nil {
			t.Fatal(err)
		}
		if got := fwd.last(); got != tc.stored {
			t.Fatalf("endpoint %s forwarded to %s, want %s", tc.endpoint, got, tc.stored)
		}
	}
}

func revision(i int) string { return "r" + string(rune('a'+i)) }

// recordingForwarder answers every call with a record, recording the
// endpoint it was sent to.
type recordingForwarder struct {
	mu        sync.Mutex
	endpoints []string
}

func (f *recordingForwarder) Forward(_ context.Context, endpoint string, call *registry.CallRequest) (*registry.ProviderResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.endpoints = append(f.endpoints, endpoint)
	return &registry.ProviderResult{Result: []byte(`{"name":"x"}`)}, nil
}

func (f *recordingForwarder) last() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.endpoints) == 0 {
		return ""
	}
	return f.endpoints[len(f.endpoints)-1]
}

// TestAddressRulesAtPublish: the default refuses what lies inside the
// registry's network; each refusal names the flag that allows it, and
// some addresses no flag allows. Publishing dials nothing.
func TestAddressRulesAtPublish(t *testing.T) {
	never := "never forwards"
	allowlist := "--allow-endpoint"
	loopback := "--insecure"
	cases := []struct {
		endpoint string
		// errors wanted under: the default, WithLoopbackEndpoints, an
		// allowlist naming the endpoint ("" accepted)
		byDefault, withLoopback, withAllowlist string
	}{
		{"http://169.254.169.254/latest/meta-data", never, never, never},
		{"http://169.254.1.1/x", never, never, never},
		{"http://[fd00:ec2::254]/x", never, never, never},
		{"http://[fe80::1]/x", never, never, never},
		{"http://0.0.0.0:8080/x", never, never, never},
		{"http://0.1.2.3/x", never, never, never},
		{"http://[::]/x", never, never, never},
		{"http://224.0.0.1/x", never, never, never},
		{"http://[ff02::1]/x", never, never, never},
		{"http://255.255.255.255/x", never, never, never},
		{"http://10.0.0.5/x", allowlist, allowlist, ""},
		{"http://172.16.9.9/x", allowlist, allowlist, ""},
		{"http://192.168.1.1/x", allowlist, allowlist, ""},
		{"http://100.64.0.1/x", allowlist, allowlist, ""},
		{"http://[fd12::1]/x", allowlist, allowlist, ""},
		{"http://127.0.0.1:9000/x", loopback, "", ""},
		{"http://127.9.9.9:9000/x", loopback, "", ""},
		{"http://[::1]:9000/x", loopback, "", ""},
		{"http://localhost:9000/x", loopback, "", ""},
		{"http://tools.localhost:9000/x", loopback, "", ""},
		{"https://93.184.216.34/x", "", "", ""},
		{"https://tools.example/x", "", "", ""},
		// IPv6 forms that carry an IPv4 address (translation and
		// tunnelling) are classed by the address they carry; one that
		// carries loopback is never forwarded to (it is no loopback of
		// this host).
		{"http://[64:ff9b::a9fe:a9fe]/", never, never, never},                // NAT64 of 169.254.169.254
		{"http://[64:ff9b::7f00:1]/x", never, never, never},                  // NAT64 of 127.0.0.1
		{"http://[64:ff9b::a00:5]/x", allowlist, allowlist, ""},              // NAT64 of 10.0.0.5
		{"https://[64:ff9b::5db8:d822]/x", "", "", ""},                       // NAT64 of 93.184.216.34
		{"http://[64:ff9b:1:a9fe:a9:fe00::]/x", never, never, never},         // local-use NAT64, /48 layout, of 169.254.169.254
		{"http://[64:ff9b:1::a9fe:a9fe]/x", never, never, never},             // local-use NAT64, /96 layout
		{"http://[64:ff9b:1::5db8:d822]/x", allowlist, allowlist, ""},        // local-use: private at least
		{"http://[2002:a9fe:a9fe::1]/x", never, never, never},                // 6to4 of 169.254.169.254
		{"http://[2002:7f00:1::1]/x", never, never, never},                   // 6to4 of 127.0.0.1
		{"http://[2002:c0a8:101::1]/x", allowlist, allowlist, ""},            // 6to4 of 192.168.1.1
		{"https://[2002:5db8:d822::1]/x", "", "", ""},                        // 6to4 of 93.184.216.34
		{"http://[::a9fe:a9fe]/x", never, never, never},                      // IPv4-compatible 169.254.169.254
		{"http://[::7f00:1]/x", never, never, never},                         // IPv4-compatible 127.0.0.1
		{"http://[::a00:5]/x", allowlist, allowlist, ""},                     // IPv4-compatible 10.0.0.5
		{"http://[::ffff:0:a9fe:a9fe]/x", never, never, never},               // IPv4-translated 169.254.169.254
		{"http://[2001:0:5db8:d822::5601:5601]/x", never, never, never},      // Teredo, client 169.254.169.254
		{"http://[2001:0:a9fe:a9fe::a247:29dd]/x", never, never, never},      // Teredo, server 169.254.169.254
		{"http://[2001:0:5db8:d822::80ff:fffe]/x", never, never, never},      // Teredo, client 127.0.0.1
		{"http://[2001:0:5db8:d822::f5ff:fffa]/x", allowlist, allowlist, ""}, // Teredo, client 10.0.0.5
		{"https://[2001:0:5db8:d822::a247:29dd]/x", "", "", ""},              // Teredo, client 93.184.216.34
		{"https://[2001:db8::1]/x", "", "", ""},                              // documentation prefix, not Teredo
	}
	for _, tc := range cases {
		for _, mode := range []struct {
			name string
			opts []service.Option
			want string
		}{
			{"default", nil, tc.byDefault},
			{"loopback", []service.Option{service.WithLoopbackEndpoints()}, tc.withLoopback},
			{"allowlist", []service.Option{service.WithEndpointAllowlist(tc.endpoint)}, tc.withAllowlist},
		} {
			svc, err := service.New(mode.opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = svc.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: tc.endpoint})
			switch {
			case mode.want == "" && err != nil:
				t.Errorf("%s, %s: %v, want accepted", tc.endpoint, mode.name, err)
			case mode.want != "" && (!errors.Is(err, registry.ErrEndpointRefused) || !strings.Contains(err.Error(), mode.want)):
				t.Errorf("%s, %s: %v, want endpoint_refused saying %q", tc.endpoint, mode.name, err, mode.want)
			}
			_ = svc.Close()
		}
	}
}
