package devserver

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.temporal.io/server/temporal"
)

// TestStartRefusesBadConfig starts servers on addresses and files that
// cannot be: each is refused, naming what is wrong, before any service
// starts.
func TestStartRefusesBadConfig(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir", "temporal.db")
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no port", Config{Addr: "127.0.0.1"}, `devserver: address "127.0.0.1": address 127.0.0.1: missing port in address`},
		{"a host name", Config{Addr: "localhost:7233"}, `devserver: address "localhost:7233": the host must be an IP address`},
		{"a port out of range", Config{Addr: "127.0.0.1:70000"}, `devserver: address "127.0.0.1:70000": bad port`},
		{"a named port", Config{Addr: "127.0.0.1:http"}, `devserver: address "127.0.0.1:http": bad port`},
		{"a file in a missing directory", Config{Addr: "127.0.0.1:0", DBFile: missing}, "devserver: database " + missing + ": stat "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := Start(tc.cfg)
			if err == nil {
				_ = srv.Stop()
				t.Fatal("Start succeeded")
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Start: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestStartPortTaken starts servers whose ports another listener holds
// when the server binds them, as when a port is taken between the moment
// Start picks it free and the moment the server binds it: a port Start
// picked makes it start again on new ones, a port the address names is an
// error at once, and ports that stay taken end in an error after
// startAttempts starts. None of them reaches the server's nil listener.
func TestStartPortTaken(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	heldPort := held.Addr().(*net.TCPAddr).Port
	// takenFirst picks the held port first, free ports afterwards.
	takenFirst := func(n *int) func() (int, error) {
		return func() (int, error) {
			if *n++; *n == 1 {
				return heldPort, nil
			}
			return freePort()
		}
	}
	for _, tc := range []struct {
		name     string
		addr     string
		pick     func(n *int) func() (int, error)
		want     string // the error's start; empty when the server starts
		minPicks int
	}{
		{name: "a picked frontend port", addr: "127.0.0.1:0", pick: takenFirst, minPicks: 2*len(temporal.DefaultServices) + 1},
		{name: "a picked port of every start", addr: "127.0.0.1:0",
			pick: func(n *int) func() (int, error) { return func() (int, error) { *n++; return heldPort, nil } },
			want: fmt.Sprintf("devserver: %d starts, each on ports picked free that another listener took before the server bound them: ", startAttempts)},
		{name: "the address's port", addr: held.Addr().String(), pick: takenFirst,
			want: fmt.Sprintf("devserver: address %q is in use: ", held.Addr().String())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			picks := 0
			srv, err := start(Config{Addr: tc.addr}, tc.pick(&picks))
			if tc.want != "" {
				if err == nil {
					_ = srv.Stop()
					t.Fatal("Start succeeded")
				}
				if !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, syscall.EADDRINUSE) {
					t.Fatalf("Start: %v, want %q and address in use", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			if _, p, _ := net.SplitHostPort(srv.Addr()); p == strconv.Itoa(heldPort) {
				t.Errorf("the server listens on the held port %s", p)
			}
			if picks < tc.minPicks {
				t.Errorf("%d ports picked, want a second start's (at least %d)", picks, tc.minPicks)
			}
		})
	}
}
