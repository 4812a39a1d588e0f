package discovery

import (
	"encoding/json"
	"sync"
)

// schemaMemo remembers the outcome of checking parameter schemas, keyed by
// their exact bytes, so that a schema seen on every planning step (an
// application tool, a snapshot in the history) is compiled once. A Catalog
// owns one; a nil memo checks every time.
type schemaMemo struct {
	mu      sync.Mutex
	results map[memoKey]error
}

type memoKey struct {
	strict bool
	raw    string
}

// check runs CheckParameters on raw and, when strict, CheckStrictSchema,
// and returns the first failure: ErrInvalidParameters or
// ErrNotStrictCapable.
func (m *schemaMemo) check(raw json.RawMessage, strict bool) error {
	if m == nil {
		return checkSchema(raw, strict)
	}
	// The key is built in the lookup itself, so that the lookup reads raw
	// without copying it; only a schema checked for the first time is
	// copied into a key of its own.
	m.mu.Lock()
	err, done := m.results[memoKey{strict: strict, raw: string(raw)}]
	m.mu.Unlock()
	if done {
		return err
	}
	err = checkSchema(raw, strict)
	m.mu.Lock()
	if m.results == nil {
		m.results = make(map[memoKey]error)
	}
	m.results[memoKey{strict: strict, raw: string(raw)}] = err
	m.mu.Unlock()
	return err
}

func checkSchema(raw json.RawMessage, strict bool) error {
	if err := CheckParameters(raw); err != nil {
		return err
	}
	if strict {
		return CheckStrictSchema(raw)
	}
	return nil
}
