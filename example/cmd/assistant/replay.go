// Offline runs: a loopback server stands in for the provider's API, so that
// the real adapter and SDK send real requests and decode recorded answers.

package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"slices"
	"sync"
	"time"
)

// recordings holds one directory per provider; each file is one response
// body in the provider's wire format, served in file-name order.
//
//go:embed recordings
var recordings embed.FS

// loadRecordings returns the recorded response bodies of provider in order.
func loadRecordings(provider string) ([][]byte, error) {
	dir := path.Join("recordings", provider)
	entries, err := fs.ReadDir(recordings, dir)
	if err != nil {
		return nil, fmt.Errorf("recordings of %s: %w", provider, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && path.Ext(e.Name()) == ".json" {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("recordings of %s: no .json file in %s", provider, dir)
	}
	slices.Sort(names)
	bodies := make([][]byte, len(names))
	for i, n := range names {
		if bodies[i], err = recordings.ReadFile(path.Join(dir, n)); err != nil {
			return nil, fmt.Errorf("recordings of %s: %w", provider, err)
		}
	}
	return bodies, nil
}

// replayServer is a stand-in for a provider's API on 127.0.0.1: it answers
// the i-th POST to its endpoint with the i-th recorded response and records
// the size of each request body the SDK sent.
type replayServer struct {
	path    string
	replies [][]byte
	log     *requestLog
	srv     *http.Server
	url     string

	mu   sync.Mutex
	sent int
	// bodies are the request bodies received at the endpoint, in order.
	bodies [][]byte
	// failure is the first request the recordings could not answer.
	failure error
}

// startReplay serves the recordings of provider on a free loopback port.
func startReplay(provider string, log *requestLog) (*replayServer, error) {
	replies, err := loadRecordings(provider)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("replay server: %w", err)
	}
	r := &replayServer{path: setups[provider].path, replies: replies, log: log, url: "http://" + ln.Addr().String()}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// ServeHTTP answers one request with the next recording.
func (r *replayServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		r.refuse(w, http.StatusBadRequest, fmt.Errorf("read request body: %w", err))
		return
	}
	if req.Method != http.MethodPost || req.URL.Path != r.path {
		r.refuse(w, http.StatusNotFound, fmt.Errorf("%s %s is not the recorded endpoint POST %s", req.Method, req.URL.Path, r.path))
		return
	}
	r.log.add(len(body))
	r.mu.Lock()
	n := r.sent
	r.sent++
	r.bodies = append(r.bodies, body)
	r.mu.Unlock()
	if n >= len(r.replies) {
		r.refuse(w, http.StatusInternalServerError, fmt.Errorf("request %d has no recording (%d recorded)", n+1, len(r.replies)))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", fmt.Sprintf("req_replay_%d", n+1))
	_, _ = w.Write(r.replies[n])
}

// refuse answers a request the recordings do not cover and remembers why.
func (r *replayServer) refuse(w http.ResponseWriter, status int, err error) {
	r.mu.Lock()
	if r.failure == nil {
		r.failure = err
	}
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"replay_error","message":%q}}`, err.Error())
}

// check reports a request the recordings could not answer, and recordings
// left unused.
func (r *replayServer) check() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failure != nil {
		return fmt.Errorf("replay: %w", r.failure)
	}
	if r.sent != len(r.replies) {
		return fmt.Errorf("replay: %d of %d recorded responses used", r.sent, len(r.replies))
	}
	return nil
}

// requests returns the request bodies received at the endpoint, in order.
func (r *replayServer) requests() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.bodies)
}

// close stops the server.
func (r *replayServer) close() error {
	if err := r.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("replay server: %w", err)
	}
	return nil
}
