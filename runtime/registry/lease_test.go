package registry

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// countingRenewer is a Renewer test double: it counts renewals and fails
// the one numbered failAt (0: none).
type countingRenewer struct {
	n      atomic.Int64
	failAt int64
	cancel context.CancelFunc
	stopAt int64
}

func (r *countingRenewer) Renew(_ context.Context, req *RenewRequest) (*Lease, error) {
	n := r.n.Add(1)
	if n == r.stopAt {
		r.cancel()
	}
	if n == r.failAt {
		return nil, Errorf(CodeTokenMismatch, "replaced")
	}
	return &Lease{Toolset: req.Toolset, Token: req.Token}, nil
}

func TestKeepLease(t *testing.T) {
	req := &RenewRequest{Toolset: "records", Token: "t"}
	cases := []struct {
		name    string
		failAt  int64
		stopAt  int64
		want    error
		renewed int64
	}{
		{"renews until the context ends", 0, 3, nil, 3},
		{"ends at a failed renewal", 2, 0, ErrTokenMismatch, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := &countingRenewer{failAt: c.failAt, stopAt: c.stopAt, cancel: cancel}
			err := KeepLease(ctx, r, req, time.Millisecond)
			if !errors.Is(err, c.want) && !(c.want == nil && err == nil) {
				t.Fatalf("KeepLease = %v, want %v", err, c.want)
			}
			if n := r.n.Load(); n != c.renewed {
				t.Fatalf("renewed %d times, want %d", n, c.renewed)
			}
		})
	}
	if err := KeepLease(context.Background(), &countingRenewer{}, req, 0); err == nil {
		t.Fatal("KeepLease accepted a zero interval")
	}
}
