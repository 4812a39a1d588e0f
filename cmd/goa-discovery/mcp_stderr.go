package main

// The standard error of a server run over stdio by mcp import and mcp
// diff: its last lines are kept, so that a server that does not start
// says why.

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stderrKeep is how many bytes of a server's standard error are kept.
const stderrKeep = 4 << 10

// tailBuffer keeps the last stderrKeep bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > stderrKeep {
		b.buf = slices.Clone(b.buf[len(b.buf)-stderrKeep:])
	}
	return len(p), nil
}

// lastLines returns the last n lines written, each prefixed for a message.
func (b *tailBuffer) lastLines(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(b.buf), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	lines = lines[max(0, len(lines)-n):]
	return "  | " + strings.Join(lines, "\n  | ")
}

// stdioServer runs a server's command line over stdio, keeping its
// standard error.
type stdioServer struct {
	command []string
	stderr  tailBuffer
}

// NewTransport implements mcp.Transport.
func (s *stdioServer) NewTransport(context.Context) (sdk.Transport, error) {
	cmd := exec.Command(s.command[0], s.command[1:]...)
	cmd.Stderr = &s.stderr
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil
}
