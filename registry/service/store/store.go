package store

// The store boundary. A Store holds everything a registry must not lose:
// the registrations with the generation they make up, and the admitted
// calls with their results. A service.Service keeps only what it can
// rebuild from a Store: compiled tools and the calls it is forwarding
// right now.
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
// service's changes only once it has read the Store again; a shared Store
// (StoreTraits.Shared, package service's shared.go) tells a service when
// to, before each read.

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
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
	// ErrUnavailable: the store could not be reached. Unlike other store
	// errors, the change may have been made before the store's answer was
	// lost; publishes and calls are idempotent, so the caller retries them.
	ErrUnavailable = errors.New("registry store: unreachable")
)

// Store is where a service.Service keeps its state: the registrations
// with the generation they make up, the admitted calls with their results,
// the attempts of the calls being forwarded, and, for a store that keeps
// them, providers' leases. Every change is one atomic operation: a
// registration changes only while its toolset still has the token the
// writer read (compare-and-set), a call is admitted at most once and only
// while its token is current, and a result is recorded at most once. An
// operation that returns no error is durable in the store's own terms; one
// that returns an error changed nothing. The embedded store (package
// embeddedstore: in memory, persisted by service.WithDataDir) is the
// default; the Redis store (package redisstore) is shared by the nodes of
// a cluster. A Store is safe for concurrent use.
type Store interface {
	// Traits says what the store is to the services that use it.
	Traits() StoreTraits

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
	// Generation returns the current generation, or, for a shared store,
	// one that every change acknowledged more than the store's staleness
	// bound ago has reached. A Service reads it before each read of a
	// shared store (package service's shared.go).
	Generation(ctx context.Context) (uint64, error)
	// Epoch returns how many times the store found that it had lost
	// changes it acknowledged. It only grows, and only during a read
	// (Generation, Registrations) that found it; what that read returns
	// is the store's state after the loss. A store that is not shared
	// never loses what it acknowledged: its epoch stays 0.
	Epoch() uint64

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
	// ListCalls returns up to limit call records, the latest event
	// (CallRecord.LastEvent) first, only those without a result when
	// pending, and whether more matched (SortCalls orders them).
	ListCalls(ctx context.Context, pending bool, limit int) ([]*CallRecord, bool, error)
	// Forget removes the records of calls whose last event (see
	// CallRecord.LastEvent) is before cutoff, except those keep reports,
	// and returns how many it removed.
	Forget(ctx context.Context, cutoff time.Time, keep func(callID string) bool) (int, error)

	// The attempts of calls, by the rules of package service's attempts.go: a forwarder
	// holds a claim on the call, renewed while it forwards and fenced by an
	// increasing number; it hands the call over to its provider in one
	// step that checks the claim, and only the holder of the hand-over
	// records the result. A call handed over whose claim lapsed before a
	// result was recorded is AttemptLost.

	// Claim makes owner the forwarder of callID for ttl, unless another
	// claim is current or a hand-over is outstanding, and returns the new
	// claim's fence (greater than any fence handed out before); otherwise
	// it returns 0 and the call's state.
	Claim(ctx context.Context, callID, owner string, ttl time.Duration) (uint64, AttemptState, error)
	// Renew extends the claim fence of callID by ttl, and reports whether
	// it was still current.
	Renew(ctx context.Context, callID string, fence uint64, ttl time.Duration) (bool, error)
	// HandOver records that callID is being sent to its provider under the
	// claim fence, provided fence is the call's current claim, the call has
	// no result and no hand-over is outstanding; ErrClaimLost otherwise.
	HandOver(ctx context.Context, callID string, fence uint64) error
	// AdmitAndHandOver stores rec as Admit does, and returns the call's
	// record and whether it is rec. For a new admission it also makes
	// owner the call's forwarder for ttl (Claim) and records the call's
	// hand-over under that claim (HandOver), and returns the claim's
	// fence; 0 when a claim or hand-over left by a forgotten call with the
	// same ID kept it from both.
	AdmitAndHandOver(ctx context.Context, rec *CallRecord, owner string, ttl time.Duration) (*CallRecord, bool, uint64, error)
	// CompleteHandedOver records res as the result of callID, provided the
	// call was handed over under fence, and ends the hand-over and the
	// claim. It returns the call's result: res when it recorded it, the
	// result recorded before otherwise. A call not handed over under fence
	// is ErrClaimLost; one with no admission, ErrNotAdmitted.
	CompleteHandedOver(ctx context.Context, callID string, fence uint64, res *registry.CallResult) (*registry.CallResult, error)
	// Return ends the hand-over and the claim fence of callID, those that
	// fence holds, after its provider answered with a failure: the call
	// may be handed over again.
	Return(ctx context.Context, callID string, fence uint64) error
	// ReturnUnsent ends owner's claim of callID and the hand-over made
	// under it, if the call has no result: an AdmitAndHandOver whose
	// answer was lost may have made them, and the call was not sent.
	ReturnUnsent(ctx context.Context, callID, owner string) error
	// Release ends the claim fence of callID if it is current, leaving a
	// hand-over made under it outstanding.
	Release(ctx context.Context, callID string, fence uint64) error
	// Attempt returns the state of callID's forwarding.
	Attempt(ctx context.Context, callID string) (AttemptState, error)

	// RenewLease sets the lease of toolset's registration to until,
	// provided token is its current token; ErrStale otherwise. A lease
	// belongs to a registration: a change of the toolset's registration
	// drops it. A store whose Traits has no Leases refuses it.
	RenewLease(ctx context.Context, toolset string, token registry.Token, until time.Time) error
	// Lease returns the lease of toolset's registration, the zero time when
	// none was renewed since it was registered. A store whose Traits has no
	// Leases refuses it.
	Lease(ctx context.Context, toolset string) (time.Time, error)
}

// StoreTraits is what a Store is to the services that use it.
type StoreTraits struct {
	// Shared: other services change the store too (the nodes of one
	// registry). A service then reads the store's generation before it
	// answers a read or decides a change, decides a refusal on a fresh
	// read of the registrations, and reports the store's reachability on
	// PathReadyz (package service's shared.go, fresh.go, health.go). A store that is not
	// shared is changed only through the service that opened it, whose
	// installed registrations are then always current.
	Shared bool
	// Leases: the store keeps providers' leases (RenewLease, Lease), as
	// service.WithProviderLease needs.
	Leases bool
}

// ErrNoLeases: the store keeps no providers' leases (its Traits has no
// Leases).
var ErrNoLeases = errors.New("registry store: keeps no leases")

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
		out.Result = CloneResult(r.Result)
	}
	return &out
}

// CloneResult returns a copy of r sharing nothing with it.
func CloneResult(r *registry.CallResult) *registry.CallResult {
	out := *r
	out.Result = bytes.Clone(r.Result)
	return &out
}

// SortCalls orders call records the latest event first, then by id, and
// keeps the first limit; it reports whether it dropped any, as
// Store.ListCalls answers.
func SortCalls(recs []*CallRecord, limit int) ([]*CallRecord, bool) {
	slices.SortFunc(recs, func(a, b *CallRecord) int {
		if c := b.LastEvent().Compare(a.LastEvent()); c != 0 {
			return c
		}
		return strings.Compare(a.CallID, b.CallID)
	})
	if len(recs) > limit {
		return recs[:limit], true
	}
	return recs, false
}
