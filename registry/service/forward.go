package service

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Forwarder carries an admitted call to the endpoint of the registration it
// was admitted under. It returns the provider's answer for a call that ran,
// an *registry.Error with CodeOverloaded when the provider asks to retry
// later, or an error with CodeProviderUnavailable when the endpoint failed;
// an error whose chain holds ErrNoAnswer when the call may have reached the
// provider but no answer came back (and the call then is never sent again
// by nodes sharing a store that records attempts).
type Forwarder interface {
	// Forward sends the call to endpoint.
	Forward(ctx context.Context, endpoint string, call *registry.CallRequest) (*registry.ProviderResult, error)
}

// HTTPForwarder forwards calls as POSTed JSON to endpoints that serve
// registry.ProviderHandler.
type HTTPForwarder struct {
	// Client sends the requests; http.DefaultClient when nil.
	Client *http.Client
	// MaxBody bounds the answers read; registry.DefaultMaxBodyBytes when
	// zero.
	MaxBody int64
}

// Forward implements Forwarder. Its errors name the tool, never the
// endpoint: the provider's URL (its query string included) and the
// network's view of it stay in the error's Cause.
func (f *HTTPForwarder) Forward(ctx context.Context, endpoint string, call *registry.CallRequest) (*registry.ProviderResult, error) {
	body, err := json.Marshal(call)
	if err != nil {
		return nil, registry.Internal(fmt.Sprintf("encode call %q", call.CallID), err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, unavailable(call, "its endpoint is not a valid request URL", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(ForwardedHeader, "1")
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, unavailable(call, reachFailure(ctx, err), noAnswer(err))
	}
	defer resp.Body.Close()
	limit := f.MaxBody
	if limit <= 0 {
		limit = registry.DefaultMaxBodyBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, unavailable(call, "its answer was cut off", fmt.Errorf("%w: %w", ErrNoAnswer, err))
	}
	if int64(len(data)) > limit {
		return nil, unavailable(call, fmt.Sprintf("its answer exceeds %d bytes", limit), nil)
	}
	switch {
	case resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusTooManyRequests:
		e := registry.Errorf(registry.CodeOverloaded, "provider of %q is overloaded (status %d)", call.Tool, resp.StatusCode)
		e.RetryAfter = DefaultRetryAfter
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			e.RetryAfter = time.Duration(secs) * time.Second
		}
		return nil, e
	case resp.StatusCode != http.StatusOK:
		return nil, unavailable(call, fmt.Sprintf("it answered status %d%s", resp.StatusCode, errorCode(data)), nil)
	}
	var out registry.ProviderResult
	if err := strictjson.Decode(data, &out); err != nil {
		return nil, unavailable(call, "its answer is not a provider result", err)
	}
	return &out, nil
}

// unavailable is a CodeProviderUnavailable error naming the tool and why,
// with the detail in its Cause.
func unavailable(call *registry.CallRequest, why string, cause error) *registry.Error {
	e := registry.Errorf(registry.CodeProviderUnavailable, "provider of %q could not run call %q: %s", call.Tool, call.CallID, why)
	e.Cause = cause
	return e
}

// noAnswer marks the error of a request that got no answer with
// ErrNoAnswer, unless the connection was never made (the dial failed or was
// refused, or the registry refused the provider's TLS certificate, or the
// provider does not speak TLS): the provider then never saw the call.
func noAnswer(err error) error {
	var op *net.OpError
	var cert *tls.CertificateVerificationError
	var header tls.RecordHeaderError
	if errors.Is(err, errSelfAddress) || errors.Is(err, errRefusedAddress) || (errors.As(err, &op) && op.Op == "dial") ||
		errors.As(err, &cert) || errors.As(err, &header) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrNoAnswer, err)
}

// reachFailure says, without addresses, why a request got no answer.
func reachFailure(ctx context.Context, err error) string {
	var ne net.Error
	switch {
	case ctx.Err() != nil || (errors.As(err, &ne) && ne.Timeout()):
		return "it did not answer in time"
	case errors.Is(err, errSelfAddress):
		return "its endpoint is the registry's own address"
	case errors.Is(err, errRefusedAddress):
		return "its endpoint resolves to an address the registry does not forward to"
	default:
		return "it could not be reached"
	}
}

// errorCode returns ", code X" for a provider's error body with a
// registry error code, else "". The provider's message stays out: it may
// describe the provider's internals.
func errorCode(data []byte) string {
	var body registry.ErrorBody
	if strictjson.Decode(data, &body) == nil && body.Error != nil && body.Error.Code != "" {
		return fmt.Sprintf(", code %s", strconv.Quote(string(body.Error.Code)))
	}
	return ""
}

// asRegistryError returns err as an *registry.Error; an error that is not
// one (from a Forwarder of the application's) becomes the provider being
// unavailable, its text kept in the Cause since it may name addresses.
func asRegistryError(call *registry.CallRequest, err error) *registry.Error {
	var e *registry.Error
	if errors.As(err, &e) {
		return e
	}
	return unavailable(call, "the forwarder failed", err)
}
