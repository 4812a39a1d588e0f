package discovery

import (
	"errors"
	"fmt"
)

// ErrNameCollision is matched by every *CollisionError.
var ErrNameCollision = errors.New("discovery: names collide")

// CollisionError reports two distinct names that map to one portable name.
type CollisionError struct {
	// Portable is the name both map to.
	Portable string
	// Names are the two original names, in the order given.
	Names [2]string
}

// Error names the colliding names and their portable name.
func (e *CollisionError) Error() string {
	return fmt.Sprintf("discovery: names %q and %q both map to the portable name %q", e.Names[0], e.Names[1], e.Portable)
}

// Is makes a *CollisionError match ErrNameCollision.
func (e *CollisionError) Is(target error) bool { return target == ErrNameCollision }

// NameMap maps names to portable names (PortableName) and back. Provider
// adapters use it to send provider-legal names and to map the names a
// model answers with back to the declared ones.
type NameMap struct {
	portable map[string]string
	original map[string]string
}

// NewNameMap maps each name to its portable name. Two distinct names that
// converge on one portable name are a *CollisionError; a name given twice
// is mapped once.
func NewNameMap(names ...string) (*NameMap, error) {
	m := &NameMap{
		portable: make(map[string]string, len(names)),
		original: make(map[string]string, len(names)),
	}
	for _, name := range names {
		if _, done := m.portable[name]; done {
			continue
		}
		p := PortableName(name)
		if other, taken := m.original[p]; taken {
			return nil, &CollisionError{Portable: p, Names: [2]string{other, name}}
		}
		m.portable[name] = p
		m.original[p] = name
	}
	return m, nil
}

// Portable returns the portable name of a mapped name.
func (m *NameMap) Portable(name string) (string, bool) {
	p, ok := m.portable[name]
	return p, ok
}

// Original returns the mapped name whose portable name is portable.
func (m *NameMap) Original(portable string) (string, bool) {
	n, ok := m.original[portable]
	return n, ok
}

// Len returns the number of mapped names.
func (m *NameMap) Len() int { return len(m.portable) }
