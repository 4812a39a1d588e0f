package service

// The store boundary is package store: the Store contract, its records and
// errors. Their names here are aliases, so that a Service's users and the
// stores name them either way; package service adds how a Service is given
// a Store.

import "github.com/goa-discovery/goa-discovery/registry/service/store"

// Store is where a Service keeps its state (store.Store).
type Store = store.Store

// StoreTraits is what a Store is to the services that use it
// (store.StoreTraits).
type StoreTraits = store.StoreTraits

// CallRecord is an admitted call as a Store keeps it (store.CallRecord).
type CallRecord = store.CallRecord

// AttemptState is the state of a pending call's forwarding in a Store
// (store.AttemptState).
type AttemptState = store.AttemptState

// Attempt states (store.AttemptFree and the others).
const (
	AttemptFree    = store.AttemptFree
	AttemptClaimed = store.AttemptClaimed
	AttemptLost    = store.AttemptLost
	AttemptDone    = store.AttemptDone
)

// Store errors (package store's), which errors.Is finds in what a Store
// returns.
var (
	ErrStale       = store.ErrStale
	ErrNotAdmitted = store.ErrNotAdmitted
	ErrStorageFull = store.ErrStorageFull
	ErrReadOnly    = store.ErrReadOnly
	ErrNoLeases    = store.ErrNoLeases
	ErrClaimLost   = store.ErrClaimLost
	ErrUnavailable = store.ErrUnavailable
)

// SortCalls orders call records the latest event first, then by id, and
// keeps the first limit (store.SortCalls).
func SortCalls(recs []*CallRecord, limit int) ([]*CallRecord, bool) {
	return store.SortCalls(recs, limit)
}

// WithStore keeps the service's state in st instead of the embedded store
// (package embeddedstore); WithDataDir is then not allowed. The service
// does not close st.
func WithStore(st Store) Option { return func(o *options) { o.store = st } }
