package service

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
		o := options{self: []string{self}, loopback: true}
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

// TestGuardedDialerChecksBeforeDialing: a name is resolved once, every
// address it resolves to is checked before any is dialed, and the dial
// goes to a checked address. Nothing here resolves a real name or dials
// outside loopback: lookups are answered by the test, and a dial of
// anything but loopback fails the test.
func TestGuardedDialerChecksBeforeDialing(t *testing.T) {
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"result":{"ok":true}}`))
	}))
	defer provider.Close()
	_, port, _ := net.SplitHostPort(provider.Listener.Addr().String())
	cases := []struct {
		name     string
		loopback bool
		answers  [][]string // what each lookup of the name answers, in turn
		wantDial string     // "" : refused before any dial
	}{
		{"public then metadata", false, [][]string{{"93.184.216.34", "169.254.169.254"}}, ""},
		{"private", false, [][]string{{"10.1.2.3"}}, ""},
		{"mapped link-local", true, [][]string{{"::ffff:169.254.169.254"}}, ""},
		{"loopback without leave", false, [][]string{{"127.0.0.1"}}, ""},
		{"loopback allowed", true, [][]string{{"127.0.0.1"}}, "127.0.0.1:" + port},
		{"NAT64 metadata", true, [][]string{{"64:ff9b::a9fe:a9fe"}}, ""},
		{"NAT64 loopback", true, [][]string{{"64:ff9b::7f00:1"}}, ""},
		{"local-use NAT64 metadata", true, [][]string{{"64:ff9b:1:a9fe:a9:fe00::"}}, ""},
		{"6to4 loopback", true, [][]string{{"2002:7f00:1::1"}}, ""},
		{"6to4 private", false, [][]string{{"2002:a00:5::1"}}, ""},
		{"IPv4-compatible metadata", true, [][]string{{"::a9fe:a9fe"}}, ""},
		{"Teredo client metadata", true, [][]string{{"2001:0:5db8:d822::5601:5601"}}, ""},
		{"loopback, then 6to4 metadata", true, [][]string{{"127.0.0.1", "2002:a9fe:a9fe::1"}}, ""},
		// A second lookup would answer the metadata address: there is none.
		{"rebinding", true, [][]string{{"127.0.0.1"}, {"169.254.169.254"}}, "127.0.0.1:" + port},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rules, err := buildRules(&options{loopback: tc.loopback})
			if err != nil {
				t.Fatal(err)
			}
			lookups, dials := 0, []string(nil)
			g := newGuardedDialer(rules)
			g.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
				if host != "provider.test" {
					t.Fatalf("lookup of %q", host)
				}
				var out []netip.Addr
				for _, a := range tc.answers[min(lookups, len(tc.answers)-1)] {
					out = append(out, netip.MustParseAddr(a))
				}
				lookups++
				return out, nil
			}
			real := g.dial
			g.dial = func(ctx context.Context, network, address string) (net.Conn, error) {
				if host, _, _ := net.SplitHostPort(address); !netip.MustParseAddr(host).IsLoopback() {
					// Never dialed: the dial is answered here.
					t.Errorf("dial of %s, outside loopback", address)
					return nil, errors.New("test: dial outside loopback")
				}
				dials = append(dials, address)
				return real(ctx, network, address)
			}
			client := newForwardClient(rules, nil)
			client.Transport.(*http.Transport).DialContext = g.DialContext
			f := &HTTPForwarder{Client: client}
			_, err = f.Forward(context.Background(), "http://provider.test:"+port+"/x", &registry.CallRequest{CallID: "c", Tool: "a.b", Token: "t", Payload: []byte(`{}`)})
			if tc.wantDial == "" {
				var e *registry.Error
				if !errors.As(err, &e) || !errors.Is(err, errRefusedAddress) || errors.Is(err, ErrNoAnswer) || e.Message != `provider of "a.b" could not run call "c": its endpoint resolves to an address the registry does not forward to` || len(dials) != 0 {
					t.Fatalf("forward = %v (dials %v), want refused before dialing", err, dials)
				}
				return
			}
			if err != nil || lookups != 1 || len(dials) != 1 || dials[0] != tc.wantDial {
				t.Fatalf("forward = %v after %d lookups, dials %v; want one dial of %s", err, lookups, dials, tc.wantDial)
			}
		})
	}
}
