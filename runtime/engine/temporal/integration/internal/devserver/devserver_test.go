package devserver

import (
	"path/filepath"
	"strings"
	"testing"
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
