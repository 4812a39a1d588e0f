package runtime

import (
	"errors"
	"fmt"
)

// Sentinel errors that callers branch on with errors.Is.
var (
	// ErrInvalidRegistration is wrapped by every error that refuses a
	// toolset, agent or registry registration for its content.
	ErrInvalidRegistration = errors.New("runtime: invalid registration")
	// ErrAlreadyRegistered is wrapped when a name is registered twice.
	ErrAlreadyRegistered = errors.New("runtime: already registered")
	// ErrUnknownAgent is wrapped when a run names an agent that is not
	// registered.
	ErrUnknownAgent = errors.New("runtime: unknown agent")
	// ErrUnknownRun is wrapped when a run id names no recorded run.
	ErrUnknownRun = errors.New("runtime: unknown run")
	// ErrCatalog is wrapped by every error that fails a planning step while
	// resolving its catalog: an unregistered toolset or registry, a failed
	// registry read, a missing source, a version mismatch, a registry that
	// changed between the step's reads of it (*RegistryChangedError), or two
	// tools with one identity or one model-facing name.
	ErrCatalog = errors.New("runtime: catalog resolution failed")
	// ErrPlanner is wrapped when the planner fails or returns an invalid
	// response.
	ErrPlanner = errors.New("runtime: planner failed")
	// ErrInvalidInput is wrapped when a run's input messages or options are
	// invalid.
	ErrInvalidInput = errors.New("runtime: invalid run input")
	// ErrCapExceeded is matched by every *CapError.
	ErrCapExceeded = errors.New("runtime: run cap reached")
)

// RegistryChangedError fails a planning step whose reads of one registry saw
// different states of it: a toolset read first may have been withdrawn or
// replaced before the next read, so the step has no consistent catalog. It
// matches ErrCatalog.
type RegistryChangedError struct {
	// Registry is the registry's name.
	Registry string
	// First and Then are the generations of the first read and of the read
	// that differed from it.
	First, Then uint64
}

// Error implements error.
func (e *RegistryChangedError) Error() string {
	return fmt.Sprintf("registry %q changed during resolution (generation %d, then %d)", e.Registry, e.First, e.Then)
}

// Is reports whether target is ErrCatalog.
func (e *RegistryChangedError) Is(target error) bool { return target == ErrCatalog }
