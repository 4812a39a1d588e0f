package service

import (
	"fmt"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Defaults of a Service.
const (
	// DefaultMaxInFlight bounds the calls being forwarded at once.
	DefaultMaxInFlight = 64
	// DefaultForwardTimeout bounds one forwarded call.
	DefaultForwardTimeout = time.Minute
	// DefaultRetryAfter is the hint given with an overloaded answer when
	// the provider gave none.
	DefaultRetryAfter = time.Second
)

// Option configures a Service.
type Option func(*options)

type options struct {
	dataDir        string
	forwarder      Forwarder
	maxInFlight    int
	maxBody        int64
	forwardTimeout time.Duration
	callRetention  time.Duration
	now            func() time.Time
	store          Store
	providerLease  time.Duration
}

// WithDataDir persists the store in dir, created when missing, and loads
// what an earlier service persisted there.
func WithDataDir(dir string) Option { return func(o *options) { o.dataDir = dir } }

// WithForwarder sets how admitted calls reach providers (an HTTPForwarder
// otherwise). In-process providers plug in here.
func WithForwarder(f Forwarder) Option { return func(o *options) { o.forwarder = f } }

// WithMaxInFlight bounds the calls forwarded at once; a call beyond the
// bound is admitted and answered registry.ErrOverloaded.
func WithMaxInFlight(n int) Option { return func(o *options) { o.maxInFlight = n } }

// WithMaxBodyBytes bounds request bodies (registry.DefaultMaxBodyBytes
// otherwise).
func WithMaxBodyBytes(n int64) Option { return func(o *options) { o.maxBody = n } }

// WithForwardTimeout bounds one forwarded call.
func WithForwardTimeout(d time.Duration) Option { return func(o *options) { o.forwardTimeout = d } }

// WithCallRetention forgets a call's admission and result d after the
// result was recorded, or d after the admission for a call that never got
// one. A call ID seen again after its record was forgotten is a new call:
// it is admitted only under the current token, and runs again; so d must
// exceed the longest time a consumer may retry or replay a call. Zero, the
// default, keeps every record.
func WithCallRetention(d time.Duration) Option { return func(o *options) { o.callRetention = d } }

// WithClock sets the clock that stamps registrations and results.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

func buildOptions(opts []Option) (options, error) {
	o := options{
		maxInFlight:    DefaultMaxInFlight,
		maxBody:        registry.DefaultMaxBodyBytes,
		forwardTimeout: DefaultForwardTimeout,
		now:            time.Now,
	}
	for _, opt := range opts {
		opt(&o)
	}
	switch {
	case o.maxInFlight <= 0:
		return o, fmt.Errorf("registry service: max in-flight calls %d is not positive", o.maxInFlight)
	case o.maxBody <= 0:
		return o, fmt.Errorf("registry service: max body bytes %d is not positive", o.maxBody)
	case o.forwardTimeout <= 0:
		return o, fmt.Errorf("registry service: forward timeout %v is not positive", o.forwardTimeout)
	case o.callRetention < 0:
		return o, fmt.Errorf("registry service: call retention %v is negative", o.callRetention)
	case o.now == nil:
		return o, fmt.Errorf("registry service: nil clock")
	}
	if o.forwarder == nil {
		o.forwarder = &HTTPForwarder{MaxBody: o.maxBody}
	}
	return o, nil
}
