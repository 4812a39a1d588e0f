package service

// Health checks for load balancers and orchestrators, served by the Handler
// without credentials and outside the access log. They say whether this
// service answers and whether its store does, nothing about the catalog.

import (
	"context"
	"net/http"
	"time"
)

// Health routes of the Handler.
const (
	// PathHealthz answers 200 while the service answers requests.
	PathHealthz = "/healthz"
	// PathReadyz answers 200 when the service can serve the registry: its
	// store answers a read within ReadyTimeout; 503 otherwise.
	PathReadyz = "/readyz"
)

// ReadyTimeout bounds the store read of a readiness check.
const ReadyTimeout = 2 * time.Second

// Ready reports why the service cannot serve the registry now, or nil:
// a shared store (SharedStore) must answer a read of its generation; the
// embedded store is in the process and always answers.
func (s *Service) Ready(ctx context.Context) error {
	st, ok := s.store.(SharedStore)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, ReadyTimeout)
	defer cancel()
	if _, err := st.Generation(ctx); err != nil {
		s.countStoreError(err)
		return err
	}
	return nil
}

// serveHealth answers the health routes and passes every other request to
// next.
func (s *Service) serveHealth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case PathHealthz:
			healthAnswer(w, r, http.StatusOK, `{"status":"live"}`)
		case PathReadyz:
			if err := s.Ready(r.Context()); err != nil {
				healthAnswer(w, r, http.StatusServiceUnavailable, `{"status":"not_ready","reason":"store_unreachable"}`)
				return
			}
			healthAnswer(w, r, http.StatusOK, `{"status":"ready"}`)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func healthAnswer(w http.ResponseWriter, r *http.Request, status int, body string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		status, body = http.StatusMethodNotAllowed, `{"status":"method_not_allowed"}`
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body + "\n"))
	}
}
