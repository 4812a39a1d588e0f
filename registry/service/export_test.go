package service

import "time"

// WithClaimRenewal renews the claims of the calls the service forwards
// every d instead of every second.
func WithClaimRenewal(d time.Duration) Option {
	return func(o *options) { o.claimRenew = d }
}
