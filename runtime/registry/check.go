package registry

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
)

// checkOrder checks, for a resolution (refs non-nil), that a catalog
// answers exactly refs, in order, at their pinned versions, and for a
// whole-registry read that it names each toolset once, sorted.
func checkOrder(cat *Catalog, refs []ToolsetRef) error {
	if refs == nil {
		for i := 1; i < len(cat.Toolsets); i++ {
			if cat.Toolsets[i-1].Toolset.Name >= cat.Toolsets[i].Toolset.Name {
				return fmt.Errorf("%w: toolsets %q and %q are not sorted and distinct", ErrBadResponse, cat.Toolsets[i-1].Toolset.Name, cat.Toolsets[i].Toolset.Name)
			}
		}
		return nil
	}
	if len(cat.Toolsets) != len(refs) {
		return fmt.Errorf("%w: %d toolsets resolved, %d asked for", ErrBadResponse, len(cat.Toolsets), len(refs))
	}
	for i, ref := range refs {
		got := &cat.Toolsets[i].Toolset
		if got.Name != ref.Name {
			return fmt.Errorf("%w: toolset %d is %q, asked for %q", ErrBadResponse, i, got.Name, ref.Name)
		}
		if ref.Version != "" && got.Version != ref.Version {
			return fmt.Errorf("%w: toolset %q resolved at version %q, pinned %q", ErrBadResponse, ref.Name, got.Version, ref.Version)
		}
	}
	return nil
}

// checkResolved checks that a resolved toolset is a record the registry
// could have accepted (contract.Fingerprint, the check a publish passes)
// and that its fingerprint and token are the ones its content and revision
// give.
func checkResolved(rt ResolvedToolset) error {
	fp, err := contract.Fingerprint(&rt.Toolset)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	if fp != rt.Fingerprint {
		return fmt.Errorf("%w: toolset %q: fingerprint %s, its content gives %s", ErrBadResponse, rt.Toolset.Name, rt.Fingerprint, fp)
	}
	if want := NewToken(fp, rt.Revision); rt.Token != want {
		return fmt.Errorf("%w: toolset %q: token %s, its fingerprint and revision %q give %s", ErrBadResponse, rt.Toolset.Name, rt.Token, rt.Revision, want)
	}
	return nil
}
