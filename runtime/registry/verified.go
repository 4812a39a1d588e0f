package registry

// Checking a catalog (validating every record, recomputing every
// fingerprint and token) costs time in proportion to its size, and a
// runtime reads its registry at every planning step. The client therefore
// remembers each toolset it has checked under the SHA-256 digest of its
// exact bytes: bytes seen before decode to a value already checked, which
// is handed out again as a deep copy instead of being decoded and checked
// anew. Any change in the bytes is a miss and is checked in full.

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
)

// maxVerified bounds the toolsets the client remembers; past it the memory
// starts over.
const maxVerified = 4096

// wireCatalog is a Catalog page whose toolsets are still raw JSON.
type wireCatalog struct {
	Generation uint64            `json:"generation"`
	Toolsets   []json.RawMessage `json:"toolsets"`
	Next       string            `json:"next,omitempty"`
}

type digest = [sha256.Size]byte

// verifiedSet is the client's memory of checked toolsets.
type verifiedSet struct {
	mu       sync.Mutex
	byDigest map[digest]ResolvedToolset
}

// catalogRead gathers the pages of one catalog read.
type catalogRead struct {
	cat  *Catalog
	seen map[digest]ResolvedToolset
}

// decodeCatalog decodes and checks a catalog answer of one page; see
// decodePage and finish.
func (v *verifiedSet) decodeCatalog(data []byte, refs []ToolsetRef) (*Catalog, error) {
	var read catalogRead
	next, err := v.decodePage(&read, data)
	if err != nil {
		return nil, err
	}
	if next != "" {
		return nil, fmt.Errorf("%w: a one-page answer names a next page", ErrBadResponse)
	}
	return v.finish(&read, refs)
}

// decodePage decodes and checks one page of a catalog read into read and
// returns the cursor of the next page, "" after the last. Every page of a
// read must have the generation of the first.
func (v *verifiedSet) decodePage(read *catalogRead, data []byte) (string, error) {
	var wire wireCatalog
	if err := strictjson.Decode(data, &wire); err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	if read.cat == nil {
		read.cat = &Catalog{Generation: wire.Generation}
		read.seen = make(map[digest]ResolvedToolset, len(wire.Toolsets))
	} else if wire.Generation != read.cat.Generation {
		return "", fmt.Errorf("%w: page of generation %d in a read of generation %d", ErrBadResponse, wire.Generation, read.cat.Generation)
	}
	if wire.Next != "" && len(wire.Toolsets) == 0 {
		return "", fmt.Errorf("%w: an empty page names a next page", ErrBadResponse)
	}
	for _, raw := range wire.Toolsets {
		i := len(read.cat.Toolsets)
		d := sha256.Sum256(raw)
		if hit, ok := v.lookup(d); ok {
			read.cat.Toolsets = append(read.cat.Toolsets, cloneResolved(hit))
			read.seen[d] = hit
			continue
		}
		var ts ResolvedToolset
		if err := strictjson.Decode(raw, &ts); err != nil {
			return "", fmt.Errorf("%w: toolset %d: %w", ErrBadResponse, i, err)
		}
		if err := checkResolved(ts); err != nil {
			return "", err
		}
		read.cat.Toolsets = append(read.cat.Toolsets, ts)
		read.seen[d] = cloneResolved(ts)
	}
	return wire.Next, nil
}

// finish checks the whole catalog of a read (see checkOrder) and
// remembers its toolsets. A whole-registry read (refs nil) also forgets
// the toolsets the registry no longer holds.
func (v *verifiedSet) finish(read *catalogRead, refs []ToolsetRef) (*Catalog, error) {
	if read.cat.Toolsets == nil {
		read.cat.Toolsets = []ResolvedToolset{}
	}
	if err := checkOrder(read.cat, refs); err != nil {
		return nil, err
	}
	v.remember(read.seen, refs == nil)
	return read.cat, nil
}

// lookup returns the remembered toolset with this digest; the caller must
// not modify it.
func (v *verifiedSet) lookup(d digest) (ResolvedToolset, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	ts, ok := v.byDigest[d]
	return ts, ok
}

// remember records the toolsets of an answer. A whole-registry read
// replaces the memory with what the registry holds now, and so does any
// answer that would take the memory past maxVerified.
func (v *verifiedSet) remember(seen map[digest]ResolvedToolset, whole bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if whole || v.byDigest == nil || len(v.byDigest)+len(seen) > maxVerified {
		v.byDigest = seen
		return
	}
	for d, ts := range seen {
		v.byDigest[d] = ts
	}
}

// listSnapshot is the last whole-registry catalog a client read, with the
// entity tag the registry gave it; a registry that answers 304 Not Modified
// to that tag still holds exactly this catalog.
type listSnapshot struct {
	etag    string
	catalog *Catalog
}

func cloneCatalog(c *Catalog) *Catalog {
	out := &Catalog{Generation: c.Generation, Toolsets: make([]ResolvedToolset, len(c.Toolsets))}
	for i, ts := range c.Toolsets {
		out.Toolsets[i] = cloneResolved(ts)
	}
	return out
}

func cloneResolved(ts ResolvedToolset) ResolvedToolset {
	ts.Toolset = contract.CloneToolset(&ts.Toolset)
	return ts
}
