package service_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// slowClients opens n connections to addr that each send a request's
// headers, announce a large body and then trickle it a byte at a time, the
// way a client exhausting a server's connections does. It returns how many
// of them the server has cut off so far, and a stop function.
func slowClients(t *testing.T, addr string, n int) (cutOff func() int64, stop func()) {
	t.Helper()
	return slowClientsAs(t, addr, n, registry.PathResolve, "")
}

// slowClientsAs is slowClients posting to path with the bearer token
// (none when "").
func slowClientsAs(t *testing.T, addr string, n int, path, token string) (cutOff func() int64, stop func()) {
	t.Helper()
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	var cut atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			if _, err := fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: registry\r\n%sContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", path, auth); err != nil {
				cut.Add(1)
				return
			}
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
				}
				_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
				if _, err := conn.Write([]byte(" ")); err != nil {
					cut.Add(1)
					return
				}
				// A server that cut the connection answers or closes it;
				// a write into a closed connection fails only later, so
				// look for that too.
				_ = conn.SetReadDeadline(time.Now().Add(time.Millisecond))
				if _, err := conn.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
					cut.Add(1)
					return
				}
			}
		}()
	}
	return cut.Load, func() { close(done); wg.Wait() }
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestSlowClients holds every connection slot of a registry with clients
// that trickle their bodies, three times over, and checks that a legitimate
// request is still served because the read timeout cuts the slow clients
// off; and that without timeouts the same request is not served at all.
func TestSlowClients(t *testing.T) {
	const maxConns = 4
	limits := service.ServerLimits{
		ReadHeaderTimeout: 200 * time.Millisecond,
		ReadTimeout:       400 * time.Millisecond,
		WriteTimeout:      2 * time.Second,
		IdleTimeout:       200 * time.Millisecond,
		MaxHeaderBytes:    8 << 10,
		MaxConns:          maxConns,
	}
	for _, tc := range []struct {
		name      string
		timeouts  bool
		wantServe bool
	}{
		{"with the server limits", true, true},
		{"without timeouts", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, err := service.New(service.WithInsecure(), service.WithForwardTimeout(100*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			srv, err := svc.NewServer(limits)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.timeouts {
				srv = &http.Server{Handler: svc.Handler()}
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve(service.LimitListener(ln, maxConns)) }()
			defer srv.Close()

			cutOff, stop := slowClients(t, ln.Addr().String(), 3*maxConns)
			defer stop()
			// The legitimate client gives up after a bound far above what
			// the timeouts need (three rounds of 400 ms).
			wait := 10 * time.Second
			if !tc.wantServe {
				wait = time.Second
			}
			client, err := registry.NewClient("http://"+ln.Addr().String(), registry.WithHTTPClient(&http.Client{Timeout: wait}))
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.ListToolsets(context.Background())
			if tc.wantServe != (err == nil) {
				t.Fatalf("legitimate list: %v (want served: %v)", err, tc.wantServe)
			}
			if !tc.wantServe {
				return
			}
			// Every slow client is cut off in the end; each notices at its
			// next write.
			for deadline := time.Now().Add(10 * time.Second); cutOff() < 3*maxConns; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("only %d of %d slow clients were cut off", cutOff(), 3*maxConns)
				}
			}
		})
	}
}

// TestSlowBodiesOfOnePrincipal is the stall: a principal with only
// the consume scope trickles bodies on many connections, more than the
// registry has slots, to a route it may use (resolve) and to one it may
// not (publish). Its publishes are refused before their bodies are read,
// its resolves beyond its share are refused at once, and so another
// principal's list is answered while the share's slow bodies are still
// being read: no timeout had to cut them off first. Without a share
// (a share as large as the slots) the list is not answered.
func TestSlowBodiesOfOnePrincipal(t *testing.T) {
	const maxConns, share = 8, 2
	limits := service.ServerLimits{
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       time.Minute, // the timeouts do not come to the rescue
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    8 << 10,
		MaxConns:          maxConns,
	}
	for _, tc := range []struct {
		name      string
		share     int
		wantServe bool
	}{
		{"with a share per principal", share, true},
		{"without a share", maxConns * 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, err := service.New(service.WithCredentials(mustCredentials(t)), service.WithMaxRequestsPerPrincipal(tc.share))
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			srv, err := svc.NewServer(limits)
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve(service.LimitListener(ln, maxConns)) }()
			defer srv.Close()

			resolves, stopResolves := slowClientsAs(t, ln.Addr().String(), 3*maxConns, registry.PathResolve, consumerToken)
			defer stopResolves()
			publishes, stopPublishes := slowClientsAs(t, ln.Addr().String(), 3*maxConns, registry.PathToolsets, consumerToken)
			defer stopPublishes()
			wait := 30 * time.Second // a bound on a hang, far above what the refusals need
			if !tc.wantServe {
				wait = time.Second
			}
			client, err := registry.NewClient("http://"+ln.Addr().String(), registry.WithBearerToken(callerToken), registry.WithHTTPClient(&http.Client{Timeout: wait}))
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.ListToolsets(context.Background())
			if tc.wantServe != (err == nil) {
				t.Fatalf("another principal's list: %v (want served: %v)", err, tc.wantServe)
			}
			if !tc.wantServe {
				return
			}
			// Every publish was refused and every resolve beyond the share;
			// those within it are still being read.
			for deadline := time.Now().Add(wait); publishes() < 3*maxConns || resolves() < 3*maxConns-share; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d slow publishes and %d of %d slow resolves refused", publishes(), 3*maxConns, resolves(), 3*maxConns-share)
				}
			}
			if got := resolves(); got != 3*maxConns-share {
				t.Fatalf("%d slow resolves cut off, want %d: those within the share are still being read", got, 3*maxConns-share)
			}
		})
	}
}

func TestNewServerLimits(t *testing.T) {
	svc, err := service.New(service.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := svc.NewServer(service.DefaultServerLimits)
	if err != nil {
		t.Fatal(err)
	}
	if srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 || srv.ReadHeaderTimeout == 0 || srv.MaxHeaderBytes == 0 {
		t.Fatalf("server without a limit: %+v", srv)
	}
	bad := service.DefaultServerLimits
	bad.WriteTimeout = service.DefaultForwardTimeout
	if _, err := svc.NewServer(bad); err == nil {
		t.Fatal("write timeout not above the forward timeout accepted")
	}
	bad = service.DefaultServerLimits
	bad.MaxConns = 0
	if _, err := svc.NewServer(bad); err == nil {
		t.Fatal("no connection limit accepted")
	}
}

// TestLimitListener: at most n connections are accepted at once, and
// closing one lets the next in.
func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := service.LimitListener(inner, 2)
	defer ln.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(100 * time.Millisecond):
	}
	first.Close()
	third := <-accepted
	second.Close()
	third.Close()
}
