package service

import (
	"errors"
	"mime"
	"net/http"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Handler serves the registry protocol (see the registry.Path* routes).
// Requests are authenticated first (WithCredentials; every request is
// refused unless credentials are configured or WithInsecure is given),
// admitted before their bodies are read (share.go: the route's action
// against the principal's scopes, the principal's share of requests in
// flight, a deadline for the body), then request bodies are JSON of at most the service's body limit, decoded
// strictly (registry.DecodeRequest; a publish body is outlined first, see
// handlePublish), then authorized against the toolset they name: publishing and withdrawing need the toolset's publish scope,
// listing and resolving the consume scope, calling the toolset's call
// scope; the operator routes (PathRegistrations, GET registry.PathCalls)
// the inspect scope. Every failure is an error body with a precise
// message, and a rejected request changes nothing. Every request but the
// health checks (PathHealthz, PathReadyz, unauthenticated) is recorded in
// the access log, the request metrics and a span (accesslog.go).
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+registry.PathToolsets, s.handlePublish)
	mux.HandleFunc("GET "+registry.PathToolsets, s.handleList)
	mux.HandleFunc("POST "+registry.PathResolve, s.handleResolve)
	mux.HandleFunc("POST "+registry.PathWithdraw, s.handleWithdraw)
	mux.HandleFunc("POST "+registry.PathCalls, s.handleCall)
	mux.HandleFunc("POST "+registry.PathRenew, s.handleRenew)
	mux.HandleFunc("GET "+PathRegistrations, s.handleRegistrations)
	mux.HandleFunc("GET "+registry.PathCalls, s.handleListCalls)
	for path, allow := range map[string]string{
		registry.PathToolsets: "GET, POST",
		registry.PathResolve:  "POST",
		registry.PathWithdraw: "POST",
		registry.PathCalls:    "GET, POST",
		registry.PathRenew:    "POST",
		PathRegistrations:     "GET",
	} {
		mux.HandleFunc(path, methodNotAllowed(allow))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		registry.WriteError(w, registry.Errorf(registry.CodeNotFound, "no route %s %s", r.Method, r.URL.Path))
	})
	return s.serveHealth(s.observeRequests(refuseForwarded(s.authenticate(s.admitRequest(mux)))))
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		registry.WriteError(w, registry.Errorf(registry.CodeMethodNotAllowed, "%s %s: want %s", r.Method, r.URL.Path, allow))
	}
}

// decode reads a request body into v; it reports false after writing the
// error response.
func (s *Service) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	data, ok := s.readBody(w, r)
	return ok && s.decodeBody(w, r, data, v)
}

// readBody reads a request's JSON body whole, within the service's body
// limit; it reports false after writing the error response.
func (s *Service) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			registry.WriteError(w, registry.Errorf(registry.CodeUnsupportedMediaType, "content type %q, want application/json", ct))
			return nil, false
		}
	}
	if r.ContentLength > s.opts.maxBody {
		registry.WriteError(w, registry.Errorf(registry.CodeBodyTooLarge, "request body of %d bytes exceeds %d bytes", r.ContentLength, s.opts.maxBody))
		return nil, false
	}
	data, err := registry.ReadRequestBody(r.Body, s.opts.maxBody)
	if err != nil {
		registry.WriteError(w, err)
		return nil, false
	}
	return data, true
}

// decodeBody decodes a body read whole into v; it reports false after
// writing the error response.
func (s *Service) decodeBody(w http.ResponseWriter, r *http.Request, data []byte, v any) bool {
	if err := registry.DecodeRequestBody(data, v); err != nil {
		registry.WriteError(w, err)
		return false
	}
	noteDecoded(r.Context(), v)
	return true
}

// handlePublish outlines the body before it decodes it
// (registry.OutlinePublish): a principal that may not publish the toolset
// the body names, and a schema over the service's limits, are refused
// from one pass over the bytes, never decoded.
func (s *Service) handlePublish(w http.ResponseWriter, r *http.Request) {
	data, ok := s.readBody(w, r)
	if !ok {
		return
	}
	if out, err := registry.OutlinePublish(data, s.opts.schemaLimits); err == nil {
		if tools.ValidateName(out.Toolset) == nil {
			noteRequest(r.Context()).toolset = out.Toolset
		}
		if !s.authorize(w, r, access.Publish, out.Toolset) {
			return
		}
		if out.Limit != nil {
			registry.WriteError(w, out.Limit)
			return
		}
	}
	var req registry.PublishRequest
	if !s.decodeBody(w, r, data, &req) || !s.authorize(w, r, access.Publish, req.Toolset.Name) {
		return
	}
	res, err := s.Publish(r.Context(), &req)
	if err != nil {
		registry.WriteError(w, err)
		return
	}
	status := http.StatusOK
	if res.Status != registry.Unchanged {
		status = http.StatusCreated
	}
	registry.WriteJSON(w, status, res)
}

// handleList answers a whole-registry read, a page at a time (see
// pages.go). The entity tag names the service instance and generation, so
// a client that holds the catalog of the current generation gets 304 Not
// Modified instead of its first page.
func (s *Service) handleList(w http.ResponseWriter, r *http.Request) {
	if !s.authorize(w, r, access.Consume, "") {
		return
	}
	if err := s.current(r.Context()); err != nil {
		registry.WriteError(w, err)
		return
	}
	c, err := s.catalogJSON()
	if err != nil {
		registry.WriteError(w, err)
		return
	}
	body := c.first
	if text := r.URL.Query().Get("cursor"); text != "" {
		start, err := s.parseCursor(text, "", c.instance, c.generation)
		if err == nil && start >= len(c.records) {
			err = registry.Errorf(registry.CodeInvalidRequest, "cursor %q is past the catalog", text)
		}
		if err != nil {
			registry.WriteError(w, err)
			return
		}
		body = pageBody(c.generation, c.records, start, pageEnd(c.records, start, s.opts.maxPage), cursor{instance: c.instance, generation: c.generation})
	} else if r.Header.Get("If-None-Match") == c.etag {
		w.Header().Set("ETag", c.etag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", c.etag)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// handleResolve answers a resolution a page at a time (see pages.go).
func (s *Service) handleResolve(w http.ResponseWriter, r *http.Request) {
	var req registry.ResolveRequest
	if !s.decode(w, r, &req) || !s.authorize(w, r, access.Consume, "") {
		return
	}
	cat, err := s.ResolveToolsets(r.Context(), req.Toolsets)
	if err != nil {
		registry.WriteError(w, err)
		return
	}
	records, err := encodeRecords(cat.Toolsets)
	if err != nil {
		registry.WriteError(w, s.internal("encode resolution", err))
		return
	}
	refs, instance := refsDigest(req.Toolsets), s.catalogInstance()
	start := 0
	if req.Cursor != "" {
		if start, err = s.parseCursor(req.Cursor, refs, instance, cat.Generation); err == nil && start >= len(records) {
			err = registry.Errorf(registry.CodeInvalidRequest, "cursor %q is past the resolution", req.Cursor)
		}
		if err != nil {
			registry.WriteError(w, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(pageBody(cat.Generation, records, start, pageEnd(records, start, s.opts.maxPage), cursor{instance: instance, generation: cat.Generation, refs: refs}))
}

func (s *Service) handleWithdraw(w http.ResponseWriter, r *http.Request) {
	var req registry.WithdrawRequest
	if !s.decode(w, r, &req) || !s.authorize(w, r, access.Publish, req.Toolset) {
		return
	}
	if err := s.Withdraw(r.Context(), &req); err != nil {
		registry.WriteError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Service) handleCall(w http.ResponseWriter, r *http.Request) {
	var req registry.CallRequest
	if !s.decode(w, r, &req) || !s.authorize(w, r, access.Call, req.Tool.Toolset()) {
		return
	}
	res, err := s.CallResolvedTool(r.Context(), &req)
	if err != nil {
		var e *registry.Error
		if !errors.As(err, &e) {
			// The caller went away while the call ran (the access log
			// says client_gone); the call goes on and a retry finds its
			// result.
			e = registry.Errorf(registry.CodeOverloaded, "%v", err)
		}
		registry.WriteError(w, e)
		return
	}
	registry.WriteJSON(w, http.StatusOK, res)
}
