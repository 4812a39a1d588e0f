package store

import "errors"

// ErrClaimLost: the claim a change was fenced by is no longer the call's
// current claim (it lapsed, and maybe another node claimed the call), or
// the call was handed over under another claim.
var ErrClaimLost = errors.New("registry store: the claim of the call was lost")

// AttemptState is the state of a pending call's forwarding in a Store.
type AttemptState int

// Attempt states.
const (
	// AttemptFree: no claim is current and no hand-over is outstanding; a
	// node may claim the call (or it has no record).
	AttemptFree AttemptState = iota
	// AttemptClaimed: a node's claim of the call is current.
	AttemptClaimed
	// AttemptLost: the call was handed over under a claim that lapsed
	// before a result was recorded; its outcome is unknown.
	AttemptLost
	// AttemptDone: the call has a result.
	AttemptDone
)
