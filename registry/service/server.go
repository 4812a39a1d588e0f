package service

// The recommended HTTP server of a registry. A server without timeouts lets
// a client that trickles its headers or body hold a connection, a
// goroutine and a file descriptor for as long as it likes; enough of them
// and every legitimate request waits. NewServer sets every timeout
// net/http offers and LimitListener bounds the connections held at once, so
// that slow clients are cut off and the connections they held go to the
// next in line.

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// ServerLimits bound what one connection to the registry's HTTP server may
// hold.
type ServerLimits struct {
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included.
	ReadTimeout time.Duration
	// WriteTimeout bounds a request from the end of its headers to the
	// end of its answer; it must exceed the service's forward timeout,
	// since a call's answer waits for the provider.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection may wait for its
	// next request.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes int
	// MaxConns bounds the connections served at once (LimitListener);
	// further connections wait to be accepted.
	MaxConns int
}

// DefaultServerLimits are the limits "registry serve" uses: a 4 MiB body
// read at 140 KB/s still fits the read timeout.
var DefaultServerLimits = ServerLimits{
	ReadHeaderTimeout: 5 * time.Second,
	ReadTimeout:       30 * time.Second,
	WriteTimeout:      DefaultForwardTimeout + 15*time.Second,
	IdleTimeout:       60 * time.Second,
	MaxHeaderBytes:    64 << 10,
	MaxConns:          1024,
}

// NewServer returns the recommended http.Server of the service: its
// Handler with every timeout of l. Serve it on LimitListener(ln,
// l.MaxConns).
func (s *Service) NewServer(l ServerLimits) (*http.Server, error) {
	switch {
	case l.ReadHeaderTimeout <= 0 || l.ReadTimeout <= 0 || l.WriteTimeout <= 0 || l.IdleTimeout <= 0:
		return nil, fmt.Errorf("registry server: every timeout must be positive: %+v", l)
	case l.WriteTimeout <= s.opts.forwardTimeout:
		return nil, fmt.Errorf("registry server: write timeout %v must exceed the forward timeout %v, or call answers are cut off", l.WriteTimeout, s.opts.forwardTimeout)
	case l.MaxHeaderBytes <= 0 || l.MaxConns <= 0:
		return nil, fmt.Errorf("registry server: header and connection limits must be positive: %+v", l)
	}
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}, nil
}

// LimitListener returns a listener that holds at most n accepted
// connections open at once: Accept waits while n are open.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
