package service

// Health checks for load balancers and orchestrators, served by the Handler
// without credentials and outside the access log. They say whether this
// service answers, whether its store does and whether it keeps its claims
// on the calls it forwards, nothing about the catalog.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Health routes of the Handler.
const (
	// PathHealthz answers 200 while the service answers requests.
	PathHealthz = "/healthz"
	// PathReadyz answers 200 when the service can serve the registry (see
	// Ready), with, on a shared store, how many claims it holds and how
	// many times it dropped its registrations for a store that had lost
	// changes (store_resets); 503 with the NotReadyError's reason
	// otherwise.
	PathReadyz = "/readyz"
)

// ReadyTimeout bounds the store read of a readiness check: the check
// answers within it whatever the store does (readyprobe.go).
const ReadyTimeout = 2 * time.Second

// ReasonStoreUnreachable: a shared store did not answer a read of its
// generation within ReadyTimeout.
const ReasonStoreUnreachable = "store_unreachable"

// ReasonStoreReset: a shared store lost changes it had acknowledged since
// the service read its registrations (Store.Epoch), and the
// service could not read them again within ReadyTimeout. It serves none of
// the registrations it held: every request reads the store again first.
const ReasonStoreReset = "store_reset"

// NotReadyError is why a service cannot serve the registry now. Reason is
// what PathReadyz answers: ReasonStoreUnreachable, ReasonStoreReset,
// ReasonClaimsNotRenewed or ReasonClaimsLost.
type NotReadyError struct {
	Reason string
	Err    error
}

func (e *NotReadyError) Error() string {
	return fmt.Sprintf("registry service not ready (%s): %v", e.Reason, e.Err)
}

// Unwrap returns the cause.
func (e *NotReadyError) Unwrap() error { return e.Err }

// Ready reports why the service cannot serve the registry now, as a
// *NotReadyError, or nil. A shared store (StoreTraits.Shared) must answer a read
// of its generation; when the store lost changes since the service read
// its registrations, the service reads them again first; and the renewals
// of the claims the service holds on the calls it forwards must not have
// failed or found a claim lapsed since the last that succeeded
// (claims.go). The embedded store is in the process and always answers.
func (s *Service) Ready(ctx context.Context) error {
	_, err := s.readiness(ctx)
	return err
}

// readiness is Ready with the answer of PathReadyz when ready.
func (s *Service) readiness(ctx context.Context) (string, error) {
	st := s.store
	if !st.Traits().Shared {
		return `{"status":"ready"}`, nil
	}
	held, reason, cause := s.claimState()
	if reason != "" {
		return "", &NotReadyError{Reason: reason, Err: cause}
	}
	if err := s.readyProbe.read(ctx, st, ReadyTimeout); err != nil {
		s.countStoreError(err)
		return "", &NotReadyError{Reason: ReasonStoreUnreachable, Err: err}
	}
	s.mu.RLock()
	reset := st.Epoch() != s.storeEpoch
	s.mu.RUnlock()
	if reset {
		if err := s.refresh(ctx, nil); err != nil {
			return "", &NotReadyError{Reason: ReasonStoreReset, Err: err}
		}
	}
	return fmt.Sprintf(`{"status":"ready","store":"reachable","claims_held":%d,"store_resets":%d}`, held, s.resets.Load()), nil
}

// serveHealth answers the health routes and passes every other request to
// next.
func (s *Service) serveHealth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case PathHealthz:
			healthAnswer(w, r, http.StatusOK, `{"status":"live"}`)
		case PathReadyz:
			body, err := s.readiness(r.Context())
			var nr *NotReadyError
			if errors.As(err, &nr) {
				healthAnswer(w, r, http.StatusServiceUnavailable, fmt.Sprintf(`{"status":"not_ready","reason":%q}`, nr.Reason))
				return
			}
			healthAnswer(w, r, http.StatusOK, body)
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
	w.Header().Set(RequestIDHeader, requestID(r))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body + "\n"))
	}
}
