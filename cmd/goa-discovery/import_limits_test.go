package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPImportRefusesAnOversizedList checks that mcp import of a server
// whose tools/list is larger than the session's message limit (a
// description of 20 MiB, over streamable HTTP) fails with the limit error
// and writes no design.
func TestMCPImportRefusesAnOversizedList(t *testing.T) {
	const description = 20 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil || len(req.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		head := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":`
		switch req.Method {
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "s1")
			v, _ := json.Marshal(req.Params.ProtocolVersion)
			io.WriteString(w, head+`{"protocolVersion":`+string(v)+`,"capabilities":{"tools":{}},"serverInfo":{"name":"wordy","version":"v1"}}}`)
		case "tools/list":
			out := bufio.NewWriter(w)
			io.WriteString(out, head+`{"tools":[{"name":"wordy","inputSchema":{"type":"object"},"description":"`)
			chunk := strings.Repeat("w", 64<<10)
			for range description / len(chunk) {
				if _, err := io.WriteString(out, chunk); err != nil {
					return
				}
			}
			io.WriteString(out, `"}]}}`)
			out.Flush()
		default:
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"error":{"code":-32601,"message":"no"}}`)
		}
	}))
	t.Cleanup(srv.Close)
	out := filepath.Join(t.TempDir(), "wordy.go")
	var stdout, stderr bytes.Buffer
	code := runMCP([]string{"import", "--name", "wordy", "-o", out, "--url", srv.URL}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit code %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if want := "message bytes exceed the limit of 16777216"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not hold %q:\n%s", want, stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a design was written (%v)", err)
	}
}
