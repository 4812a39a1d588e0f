package mcp_test

// The hostile server: a small MCP server written by hand, so that it can
// send what the SDK's server would build in memory first: a tools/list or
// a tools/call result of hundreds of megabytes, streamed as it is written,
// schemas whose definitions double at each level, and a tool list that
// changes at every read. It speaks newline-delimited JSON-RPC over stdio
// (this test binary re-run, see TestMain) and streamable HTTP, answering a
// POST with JSON or with one SSE event.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// hostileEnv makes the test binary serve a hostile server over stdio; its
// value is the server's hostileOptions as JSON.
const hostileEnv = "GOA_DISCOVERY_MCP_HOSTILE_STDIO"

// hostileOptions say what a hostile server sends.
type hostileOptions struct {
	// Levels, when positive, lists a tool "deep" whose inputSchema has
	// Levels definitions, each referring twice to the next.
	Levels int `json:"levels,omitempty"`
	// Tools and ToolBytes list that many tools "t<i>", each with an
	// inputSchema of about ToolBytes bytes.
	Tools     int `json:"tools,omitempty"`
	ToolBytes int `json:"toolBytes,omitempty"`
	// PageTools, when positive, lists the tools t<i> PageTools a page.
	PageTools int `json:"pageTools,omitempty"`
	// Changing makes every tools/list differ from the one before.
	Changing bool `json:"changing,omitempty"`
	// DescriptionBytes, when positive, lists a tool "wordy" whose
	// description has that many bytes.
	DescriptionBytes int `json:"descriptionBytes,omitempty"`
	// ResultBytes is the length of the text every tools/call answers.
	ResultBytes int `json:"resultBytes,omitempty"`
	// SSE answers HTTP requests with an SSE event instead of JSON.
	SSE bool `json:"sse,omitempty"`
}

// hostile is a running hostile server.
type hostile struct {
	o     hostileOptions
	lists atomic.Int64
}

// doublingSchema is an object schema with levels definitions, each an
// object whose two properties refer to the next: 2^levels leaves once
// the references are inlined, from about 90 bytes per level.
func doublingSchema(levels int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/l0"}},"$defs":{`)
	for i := range levels {
		fmt.Fprintf(&b, `"l%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/l%d"},"b":{"$ref":"#/$defs/l%d"}}},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"l%d":{"type":"string"}}}`, levels)
	return b.String()
}

// bulkySchema is an object schema of about n bytes: properties with long
// descriptions, salted so that two lists differ.
func bulkySchema(n int, salt string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	desc := strings.Repeat("d", 480)
	for i := 0; b.Len() < n-600; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string","description":"%s %s"}`, i, salt, desc)
	}
	b.WriteString(`}}`)
	return b.String()
}

// writeRepeat writes n bytes of c in chunks.
func writeRepeat(w io.Writer, c byte, n int) error {
	chunk := []byte(strings.Repeat(string(c), 64<<10))
	for n > 0 {
		k := min(n, len(chunk))
		if _, err := w.Write(chunk[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// respond writes the whole JSON-RPC response to one request, on one line.
func (h *hostile) respond(w io.Writer, id json.RawMessage, method string, params json.RawMessage) error {
	head := `{"jsonrpc":"2.0","id":` + string(id) + `,`
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(params, &p)
		v, _ := json.Marshal(p.ProtocolVersion)
		_, err := io.WriteString(w, head+`"result":{"protocolVersion":`+string(v)+`,"capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"v1"}}}`)
		return err
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(params, &p)
		from, _ := strconv.Atoi(p.Cursor)
		return h.list(w, head, from)
	case "tools/call":
		if _, err := io.WriteString(w, head+`"result":{"content":[{"type":"text","text":"`); err != nil {
			return err
		}
		if err := writeRepeat(w, 'r', h.o.ResultBytes); err != nil {
			return err
		}
		_, err := io.WriteString(w, `"}]}}`)
		return err
	case "ping":
		_, err := io.WriteString(w, head+`"result":{}}`)
		return err
	}
	_, err := io.WriteString(w, head+`"error":{"code":-32601,"message":"method not found"}}`)
	return err
}

// list writes a tools/list response from the tool t<from>, streaming its
// large parts. A list that changes changes at its first page.
func (h *hostile) list(w io.Writer, head string, from int) error {
	if from == 0 {
		h.lists.Add(1)
	}
	salt := "same"
	if h.o.Changing {
		salt = fmt.Sprintf("read%d", h.lists.Load())
	}
	to := h.o.Tools
	if h.o.PageTools > 0 {
		to = min(to, from+h.o.PageTools)
	}
	if _, err := io.WriteString(w, head+`"result":{"tools":[`); err != nil {
		return err
	}
	sep := ""
	if h.o.Levels > 0 && from == 0 {
		if _, err := io.WriteString(w, `{"name":"deep","description":"Doubling definitions","inputSchema":`+doublingSchema(h.o.Levels)+`}`); err != nil {
			return err
		}
		sep = ","
	}
	if h.o.Tools > 0 {
		schema := bulkySchema(h.o.ToolBytes, salt)
		for i := from; i < to; i++ {
			if _, err := fmt.Fprintf(w, `%s{"name":"t%d","description":"Tool %d","inputSchema":%s}`, sep, i, i, schema); err != nil {
				return err
			}
			sep = ","
		}
	}
	if h.o.DescriptionBytes > 0 && from == 0 {
		if _, err := io.WriteString(w, sep+`{"name":"wordy","inputSchema":{"type":"object"},"description":"`); err != nil {
			return err
		}
		if err := writeRepeat(w, 'w', h.o.DescriptionBytes); err != nil {
			return err
		}
		if _, err := io.WriteString(w, `"}`); err != nil {
			return err
		}
	}
	next := ""
	if to < h.o.Tools {
		next = `,"nextCursor":"` + strconv.Itoa(to) + `"`
	}
	_, err := io.WriteString(w, `]`+next+`}}`)
	return err
}

// request is a JSON-RPC request or notification.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// serveStdio answers newline-delimited requests from r on w until r ends.
func (h *hostile) serveStdio(r io.Reader, w io.Writer) error {
	in := bufio.NewReader(r)
	out := bufio.NewWriterSize(w, 64<<10)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return nil
		}
		var req request
		if json.Unmarshal(line, &req) != nil || len(req.ID) == 0 {
			continue // a notification, or a response to nothing we asked
		}
		if err := h.respond(out, req.ID, req.Method, req.Params); err != nil {
			return err
		}
		if err := out.WriteByte('\n'); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// ServeHTTP answers a POST with one response, as JSON or as an SSE event.
func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		return
	default: // no standalone SSE stream
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req request
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if req.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", "hostile-1")
	}
	out := bufio.NewWriterSize(w, 64<<10)
	if h.o.SSE {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(out, "event: message\ndata: ")
		_ = h.respond(out, req.ID, req.Method, req.Params)
		_, _ = io.WriteString(out, "\n\n")
	} else {
		w.Header().Set("Content-Type", "application/json")
		_ = h.respond(out, req.ID, req.Method, req.Params)
	}
	_ = out.Flush()
}

// serveHostileStdio serves the hostile server of hostileEnv on this
// process's standard input and output.
func serveHostileStdio(spec string) int {
	var o hostileOptions
	if err := json.Unmarshal([]byte(spec), &o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := (&hostile{o: o}).serveStdio(os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}

// hostileTransports reach a hostile server: this test binary re-run as a
// stdio server, and an HTTP server in this process answering with JSON
// and with SSE.
var hostileTransports = []struct {
	name string
	open func(t testing.TB, o hostileOptions) mcp.Transport
}{
	{"stdio", func(t testing.TB, o hostileOptions) mcp.Transport {
		spec, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		c := mcp.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), hostileEnv+"="+string(spec))
		c.TerminateAfter = 1
		return c
	}},
	{"streamable HTTP, JSON", func(t testing.TB, o hostileOptions) mcp.Transport {
		return hostileHTTP(t, o)
	}},
	{"streamable HTTP, SSE", func(t testing.TB, o hostileOptions) mcp.Transport {
		o.SSE = true
		return hostileHTTP(t, o)
	}},
}

func hostileHTTP(t testing.TB, o hostileOptions) mcp.Transport {
	srv := httptest.NewServer(&hostile{o: o})
	t.Cleanup(srv.Close)
	return mcp.HTTP(srv.URL, srv.Client())
}
