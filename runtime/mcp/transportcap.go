package mcp

// The size of each message a server sends is bounded while it is read,
// before it is decoded (Limits.MaxMessageBytes): over stdio each line, over
// streamable HTTP each JSON response body and each SSE event. Reading stops
// at the limit, the connection fails, and the session reports a
// *LimitError instead of the transport's failure.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os/exec"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// messageCap bounds the messages of one connection and records the one
// that passed the limit.
type messageCap struct {
	limit int
	// got is the bytes read of the message when reading stopped; 0 while
	// every message was within the limit.
	got atomic.Int64
}

// errMessageTooLarge is the read error of a message past the limit.
var errMessageTooLarge = errors.New("mcp: message larger than the limit")

// cappedTransport is a Transport whose connections cap the messages they
// read.
type cappedTransport interface {
	newCappedTransport(ctx context.Context, c *messageCap) (sdk.Transport, error)
}

// capReader counts the bytes of the current message of r and fails the
// read past the limit. A message ends at each newline (stdio) or at an
// empty line (an SSE event); with neither, the whole stream is one
// message (a JSON body).
type capReader struct {
	r   io.Reader
	cap *messageCap
	// lines: a newline ends a message; events: an empty line does.
	lines, events bool
	n             int  // bytes of the current message
	lineEmpty     bool // no byte but '\r' since the last newline
}

// Read reads from r, failing once the current message passes the limit
// and at every read after that.
func (c *capReader) Read(p []byte) (int, error) {
	if c.cap.got.Load() > 0 {
		return 0, errMessageTooLarge
	}
	n, err := c.r.Read(p)
	rest := p[:n]
	for len(rest) > 0 {
		i := -1
		if c.lines || c.events {
			i = bytes.IndexByte(rest, '\n')
		}
		seg := rest
		if i >= 0 {
			seg, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		c.n += len(seg)
		if len(bytes.TrimLeft(seg, "\r")) > 0 {
			c.lineEmpty = false
		}
		if i >= 0 {
			c.n++ // a message's bytes include the newline that ends it
		}
		if c.n > c.cap.limit {
			c.cap.got.Store(int64(c.n))
			return 0, errMessageTooLarge
		}
		if i >= 0 {
			if c.lines || c.lineEmpty {
				c.n = 0
			}
			c.lineEmpty = true
		}
	}
	return n, err
}

// newCappedTransport starts nothing yet, as NewTransport; each line the
// process writes is bounded by c.
func (t *CommandTransport) newCappedTransport(_ context.Context, c *messageCap) (sdk.Transport, error) {
	cmd := exec.Command(t.Path, t.Args...)
	cmd.Env = slices.Clone(t.Env)
	cmd.Dir = t.Dir
	return &commandTransport{cmd: cmd, terminate: t.TerminateAfter, cap: c}, nil
}

// commandTransport runs a command and speaks newline-delimited JSON-RPC
// over its standard input and output, each line bounded.
type commandTransport struct {
	cmd       *exec.Cmd
	terminate time.Duration
	cap       *messageCap
}

// defaultTerminateAfter is how long closing waits for a process after its
// standard input closed, when CommandTransport.TerminateAfter is 0.
const defaultTerminateAfter = 5 * time.Second

// Connect starts the command.
func (t *commandTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	wait := t.terminate
	if wait <= 0 {
		wait = defaultTerminateAfter
	}
	r := io.NopCloser(&capReader{r: stdout, cap: t.cap, lines: true})
	w := &processInput{WriteCloser: stdin, cmd: t.cmd, wait: wait}
	// The SDK's own line cap stays above ours, so that ours, which
	// counts, stops first.
	return (&sdk.IOTransport{Reader: r, Writer: w, MaxLineLength: t.cap.limit + 1}).Connect(ctx)
}

// processInput is a process's standard input; closing it ends the
// process: its input closes, then it gets wait to exit before SIGTERM, and
// as long again before SIGKILL.
type processInput struct {
	io.WriteCloser
	cmd  *exec.Cmd
	wait time.Duration
}

// Close closes the input and waits for the process to exit.
func (p *processInput) Close() error {
	if err := p.WriteCloser.Close(); err != nil {
		return fmt.Errorf("close the server's standard input: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	for _, stop := range []func() error{
		func() error { return nil },
		func() error { return p.cmd.Process.Signal(syscall.SIGTERM) },
	} {
		if stop() != nil {
			continue // the process is gone or cannot be signalled
		}
		select {
		case err := <-exited:
			return err
		case <-time.After(p.wait):
		}
	}
	_ = p.cmd.Process.Kill()
	return <-exited
}

// newCappedTransport is NewTransport with each response body (JSON) and
// each SSE event bounded by c.
func (h *HTTPTransport) newCappedTransport(ctx context.Context, c *messageCap) (sdk.Transport, error) {
	t, err := h.NewTransport(ctx)
	if err != nil {
		return nil, err
	}
	st := t.(*sdk.StreamableClientTransport)
	client := http.DefaultClient
	if h.Client != nil {
		client = h.Client
	}
	capped := *client
	next := capped.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	capped.Transport = &capRoundTripper{next: next, cap: c}
	st.HTTPClient = &capped
	st.MaxEventSize = c.limit + 1 // ours stops first
	return st, nil
}

// capRoundTripper bounds the response bodies of next.
type capRoundTripper struct {
	next http.RoundTripper
	cap  *messageCap
}

// RoundTrip sends r and wraps the response's body.
func (t *capRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &capBody{capReader: capReader{r: resp.Body, cap: t.cap, events: mt == "text/event-stream"}, body: resp.Body}
	return resp, nil
}

// capBody is a bounded response body.
type capBody struct {
	capReader
	body io.ReadCloser
}

// Close closes the body.
func (b *capBody) Close() error { return b.body.Close() }
