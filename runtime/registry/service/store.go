package service

// The store boundary. A Store holds everything a registry must not lose:
// the registrations with the generation they make up, and the admitted
// calls with their results. The Service keeps only what it can rebuild
// from a Store: compiled tools and the calls it is forwarding right now.
//
// Every change is one atomic operation that a shared store (such as Redis,
// with a script or a transaction) can provide as well as the embedded one:
// a registration changes only while its toolset still has the token the
// writer read (compare-and-set), a call is admitted at most once and only
// while its token is current (admit-once, fenced by the token), and a
// result is recorded at most once. An operation that returns without an
// error is durable in the store's own terms; one that returns an error
// changed nothing.
//
// A Service reads the registrations it installed, and installs them again
// from its Store after each change it makes and after each compare-and-set
// that failed. Services sharing one Store therefore never act on a stale
// registration (the Store fences them), but each one's reads show another
// service's changes only once it has read the Store again; a SharedStore
// (shared.go) tells a service when to, before each read.

import (
	"context"
	"errors"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Store errors. A Store wraps them, so that errors.Is finds them.
var (
	// ErrStale: the compare-and-set of a change failed; the toolset's
	// current token is not the one the change expected.
	ErrStale = errors.New("registry store: the registration changed")
	// ErrNotAdmitted: a result was recorded for a call with no admission.
	ErrNotAdmitted = errors.New("registry store: no such admitted call")
	// ErrStorageFull: the change needs space the store does not have. A
	// change that frees space (a withdrawal) does not fail with it.
	ErrStorageFull = errors.New("registry store: no space left")
	// ErrReadOnly: the store could not be written when it was opened, and
	// serves reads only until it is opened again.
	ErrReadOnly = errors.New("registry store: read-only")
)

// Store is where a Service keeps its state: the registrations with the
// generation they make up, and the admitted calls with their results. Every
// change is one atomic operation: a registration changes only while its
// toolset still has the token the writer read (compare-and-set), a call is
// admitted at most once and only while its token is current, and a result
// is recorded at most once. An operation that returns no error is durable
// in the store's own terms; one that returns an error changed nothing. The
// embedded store (in memory, persisted by WithDataDir) is the default. A
// Store is safe for concurrent use.
type Store interface {
	// Registrations returns the current generation and every current
	// registration, as one consistent read.
	Registrations(ctx context.Context) (uint64, []registry.Registration, error)
	// PutRegistration makes reg the registration of its toolset provided
	// the toolset's current token is prev (the zero Token: no current
	// registration), and returns the generation the change made. When the
	// token is not prev it changes nothing and returns an error wrapping
	// ErrStale.
	PutRegistration(ctx context.Context, reg *registry.Registration, prev registry.Token) (uint64, error)
	// DeleteRegistration removes the registration of toolset provided its
	// current token is token, and returns the generation the change made;
	// ErrStale otherwise.
	DeleteRegistration(ctx context.Context, toolset string, token registry.Token) (uint64, error)
	// Admit stores rec as the admission of call rec.CallID unless that call
	// has a record, and returns the call's record and whether it is rec. A
	// new admission is fenced: it is stored only while rec.Token is the
	// current token of rec.Tool's toolset, ErrStale otherwise.
	Admit(ctx context.Context, rec *CallRecord) (*CallRecord, bool, error)
	// Complete records res as the result of an admitted call that has none,
	// and returns the call's record: with res, or with the result recorded
	// earlier. A call with no admission is ErrNotAdmitted.
	Complete(ctx context.Context, callID string, res *registry.CallResult) (*CallRecord, error)
	// Call returns the record of a call, nil when it has none.
	Call(ctx context.Context, callID string) (*CallRecord, error)
	// Forget removes the records of calls whose last event (see
	// CallRecord.LastEvent) is before cutoff, except those keep reports,
	// and returns how many it removed.
	Forget(ctx context.Context, cutoff time.Time, keep func(callID string) bool) (int, error)
}

// CallRecord is an admitted call as a Store keeps it.
type CallRecord struct {
	// CallID names the call.
	CallID string `json:"call_id"`
	// Tool is the called tool.
	Tool tools.Ident `json:"tool"`
	// Token is the registration token the call was admitted under.
	Token registry.Token `json:"token"`
	// PayloadDigest is the SHA-256, hex, of the canonical payload.
	PayloadDigest string `json:"payload_digest"`
	// Revision is the registration's revision at admission.
	Revision string `json:"revision"`
	// Endpoint is the registration's endpoint at admission, where the
	// call is forwarded.
	Endpoint string `json:"endpoint"`
	// AdmittedAt is when the call was admitted.
	AdmittedAt time.Time `json:"admitted_at"`
	// Result is the recorded outcome; nil while the call is pending.
	Result *registry.CallResult `json:"result,omitempty"`
}

// LastEvent is when the call's result was recorded, or when it was
// admitted while it has none.
func (r *CallRecord) LastEvent() time.Time {
	if r.Result != nil {
		return r.Result.CompletedAt
	}
	return r.AdmittedAt
}

// Clone returns a copy of r sharing nothing with it.
func (r *CallRecord) Clone() *CallRecord {
	out := *r
	if r.Result != nil {
		out.Result = cloneResult(r.Result)
	}
	return &out
}

// WithStore keeps the service's state in st instead of the embedded store;
// WithDataDir is then not allowed. The service does not close st.
func WithStore(st Store) Option { return func(o *options) { o.store = st } }
