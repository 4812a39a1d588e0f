package service

// Authentication and authorization of the HTTP API. Every request is
// authenticated before its body is read, so that a caller without
// credentials costs the registry no decoding, and its route's action is
// authorized then too (share.go); what the request asks is authorized once
// it is decoded, against the toolset it names.

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
)

type principalKey struct{}

// authenticate wraps next so that it serves only authenticated requests,
// with the principal in the request's context; see WithCredentials and
// WithInsecure.
func (s *Service) authenticate(next http.Handler) http.Handler {
	if s.opts.insecure {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.opts.credentials == nil {
			unauthenticated(w, "this registry has no credentials configured and admits no one")
			return
		}
		p, err := s.opts.credentials.Authenticate(r)
		if err != nil {
			unauthenticated(w, strings.TrimPrefix(err.Error(), access.ErrUnauthenticated.Error()+": "))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
	})
}

func unauthenticated(w http.ResponseWriter, msg string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="goa-discovery registry"`)
	refuseUnread(w, registry.Errorf(registry.CodeUnauthenticated, "%s", msg))
}

// authorize reports, after writing the error response, whether the
// request's principal may not perform the action on the toolset.
func (s *Service) authorize(w http.ResponseWriter, r *http.Request, a access.Action, toolset string) bool {
	if s.opts.insecure {
		noteAuthorized(r.Context(), nil, a, toolset)
		return true
	}
	p, _ := r.Context().Value(principalKey{}).(*access.Principal)
	noteAuthorized(r.Context(), p, a, toolset)
	if p == nil {
		unauthenticated(w, "no principal")
		return false
	}
	if err := p.Authorize(a, toolset); err != nil {
		if errors.Is(err, access.ErrForbidden) {
			registry.WriteError(w, registry.Errorf(registry.CodeForbidden, "%s", trimForbidden(err)))
			return false
		}
		registry.WriteError(w, err)
		return false
	}
	return true
}

// trimForbidden is the message of an access.ErrForbidden error without its
// prefix, which the error code says.
func trimForbidden(err error) string {
	return strings.TrimPrefix(err.Error(), access.ErrForbidden.Error()+": ")
}
