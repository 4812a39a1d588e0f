package registry

// Provider liveness. A registry started with a provider lease expects each
// registered provider to renew its lease before it lapses: a publish grants
// the first lease, and RenewRequest extends it from the time of renewal. A
// toolset whose lease lapsed stays registered (it is listed, and its
// provider may renew and so revive it), but resolving it or calling its
// tools fails with ErrLeaseExpired, so that a consumer learns that its
// provider is gone rather than finding its tools silently missing.

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// PathRenew: POST renews a provider's lease (RenewRequest -> Lease).
const PathRenew = "/v1/renew"

// CodeLeaseExpired: the provider of the toolset did not renew its lease in
// time; the toolset's tools cannot be resolved or called until it does.
const CodeLeaseExpired Code = "lease_expired"

// ErrLeaseExpired matches every *Error with CodeLeaseExpired.
var ErrLeaseExpired = &Error{Code: CodeLeaseExpired}

// RenewRequest renews the lease of a toolset's current registration.
type RenewRequest struct {
	// Toolset names the toolset.
	Toolset string `json:"toolset"`
	// Token is the registration's token: a provider renews only the
	// registration it made.
	Token Token `json:"token"`
}

// Validate checks the toolset name and the token.
func (r *RenewRequest) Validate() error {
	w := WithdrawRequest{Toolset: r.Toolset, Token: r.Token}
	return w.Validate()
}

// Lease answers a renewal.
type Lease struct {
	// Toolset names the toolset.
	Toolset string `json:"toolset"`
	// Token is the registration's token.
	Token Token `json:"token"`
	// ExpiresAt is when the lease lapses unless renewed again.
	ExpiresAt time.Time `json:"expires_at"`
}

// Renewer is what a provider needs to keep its lease.
type Renewer interface {
	// Renew renews the lease of a toolset's current registration.
	Renew(ctx context.Context, req *RenewRequest) (*Lease, error)
}

// Renew renews the lease of a toolset's current registration.
func (c *Client) Renew(ctx context.Context, req *RenewRequest) (*Lease, error) {
	var out Lease
	if err := c.do(ctx, http.MethodPost, PathRenew, req, &out); err != nil {
		return nil, fmt.Errorf("renew lease of toolset %q: %w", req.Toolset, err)
	}
	if out.Toolset != req.Toolset || out.Token != req.Token {
		return nil, fmt.Errorf("renew lease of toolset %q: %w: lease is for %q under %q", req.Toolset, ErrBadResponse, out.Toolset, out.Token)
	}
	return &out, nil
}

// KeepLease renews the lease of req every interval until ctx ends, and then
// returns nil; a renewal that fails ends it with the error, for the
// provider to act on (a replaced or withdrawn registration is
// ErrTokenMismatch or ErrToolsetNotFound).
func KeepLease(ctx context.Context, r Renewer, req *RenewRequest, interval time.Duration) error {
	if interval <= 0 {
		return fmt.Errorf("keep lease of toolset %q: interval %v is not positive", req.Toolset, interval)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if ctx.Err() != nil {
			return nil // both were ready: the end wins
		}
		if _, err := r.Renew(ctx, req); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}
