package service

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
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
	schemaLimits   registry.SchemaLimits
	credentials    *access.Credentials
	insecure       bool
	loopback       bool
	// maxPerPrincipal and bodyTimeout bound what one principal's
	// requests hold before their bodies are read (share.go).
	maxPerPrincipal int
	bodyTimeout     time.Duration
	logger          *slog.Logger
	meters          metric.MeterProvider
	tracers         trace.TracerProvider
	allowlist       []string
	self            []string
	rules           *endpointRules
	forwardTLS      *tls.Config
	maxPage         int
	now             func() time.Time
	store           Store
	providerLease   time.Duration
}

// WithDataDir persists the embedded store in dir, created when missing,
// and loads what an earlier service persisted there. It excludes
// WithStore.
func WithDataDir(dir string) Option { return func(o *options) { o.dataDir = dir } }

// WithForwarder sets how admitted calls reach providers (otherwise an
// HTTPForwarder whose client refuses to dial the registry's own addresses
// and follows no redirects). In-process providers plug in here.
func WithForwarder(f Forwarder) Option { return func(o *options) { o.forwarder = f } }

// WithMaxInFlight bounds the calls forwarded at once; a call beyond the
// bound is admitted and answered registry.ErrOverloaded.
func WithMaxInFlight(n int) Option { return func(o *options) { o.maxInFlight = n } }

// WithMaxBodyBytes bounds request bodies (registry.DefaultMaxBodyBytes
// otherwise).
func WithMaxBodyBytes(n int64) Option { return func(o *options) { o.maxBody = n } }

// WithMaxPageBytes bounds the records of one catalog page over HTTP to n
// bytes (registry.MaxAnswerRecordBytes, the most, otherwise); a record
// larger than n still travels, alone on its page.
func WithMaxPageBytes(n int) Option { return func(o *options) { o.maxPage = n } }

// WithForwardTimeout bounds one forwarded call.
func WithForwardTimeout(d time.Duration) Option { return func(o *options) { o.forwardTimeout = d } }

// WithCallRetention forgets a call's admission and result d after the
// result was recorded, or d after the admission for a call that never got
// one. A call ID seen again after its record was forgotten is a new call:
// it is admitted only under the current token, and runs again; so d must
// exceed the longest time a consumer may retry or replay a call. Zero, the
// default, keeps every record.
func WithCallRetention(d time.Duration) Option { return func(o *options) { o.callRetention = d } }

// WithSchemaLimits bounds the cost of compiling a toolset's schemas
// (registry.DefaultSchemaLimits otherwise). A publish over a limit is
// refused with registry.ErrSchemaLimit; so is starting from a data directory
// holding a toolset over a limit, which must be withdrawn by a registry
// started with limits that admit it.
func WithSchemaLimits(l registry.SchemaLimits) Option {
	return func(o *options) { o.schemaLimits = l }
}

// WithCredentials makes the Handler admit only requests carrying one of
// the credentials, each for what its scopes allow; see package
// registry/access. Calls made in process (Publish, CallResolvedTool, ...)
// are the caller's own and are not checked.
func WithCredentials(c *access.Credentials) Option { return func(o *options) { o.credentials = c } }

// WithInsecure makes the Handler admit every request without credentials.
// It is for a registry only trusted callers can reach, such as one on a
// loopback address inside a test or a single process; without it or
// WithCredentials, the Handler refuses every request. It implies
// WithLoopbackEndpoints.
func WithInsecure() Option { return func(o *options) { o.insecure = true } }

// WithLogger logs the failures whose details clients never see (the cause
// of an internal error, such as a store that could not persist a change,
// and why a provider could not be reached) and, for the Handler, one access
// record per request (see RequestIDHeader). Nothing is logged without it.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithClock sets the clock that stamps registrations and results.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

func buildOptions(opts []Option) (options, error) {
	o := options{
		maxInFlight:    DefaultMaxInFlight,
		maxBody:        registry.DefaultMaxBodyBytes,
		forwardTimeout: DefaultForwardTimeout,
		schemaLimits:   registry.DefaultSchemaLimits,
		maxPage:        registry.MaxAnswerRecordBytes,
		now:            time.Now,

		maxPerPrincipal: DefaultMaxRequestsPerPrincipal,
		bodyTimeout:     DefaultBodyReadTimeout,
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
	case o.schemaLimits.Validate() != nil:
		return o, fmt.Errorf("registry service: %w", o.schemaLimits.Validate())
	case o.maxPage <= 0 || o.maxPage > registry.MaxAnswerRecordBytes:
		return o, fmt.Errorf("registry service: max page bytes %d is not between 1 and %d (registry.MaxAnswerRecordBytes)", o.maxPage, registry.MaxAnswerRecordBytes)
	case o.insecure && o.credentials != nil:
		return o, fmt.Errorf("registry service: both credentials and insecure given; choose one")
	case o.now == nil:
		return o, fmt.Errorf("registry service: nil clock")
	case o.maxPerPrincipal <= 0:
		return o, fmt.Errorf("registry service: max requests per principal %d is not positive", o.maxPerPrincipal)
	case o.bodyTimeout <= 0:
		return o, fmt.Errorf("registry service: body read timeout %v is not positive", o.bodyTimeout)
	}
	rules, err := buildRules(&o)
	if err != nil {
		return o, err
	}
	o.rules = rules
	if o.forwarder == nil {
		o.forwarder = &HTTPForwarder{Client: newForwardClient(rules, o.forwardTLS), MaxBody: o.maxBody}
	}
	return o, nil
}
