package discovery

import (
	"bytes"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Prepare makes req ready for a provider: it checks the history and the
// tool choice and sets req.Tools to what Declare decides. req.Tools holds
// the application's tools on entry (kind model.ToolApplication); caps are
// the model's capabilities.
//
// catalog, when not nil, is the run's permitted deferred catalog: discovered
// tools it does not permit are withheld (reported in the result), and when
// discovery is on it becomes req.Discovery.Deferred, which must then be
// empty on entry. With a nil catalog every tool discovered in the history is
// declared and req.Discovery.Deferred is checked as given.
//
// A request that turns discovery on for a model whose client cannot render
// it fails with an error matching model.ErrToolSearchUnsupported; every
// other failure is a *model.ValidationError. On failure req is unchanged.
func Prepare(req *model.Request, caps model.Capabilities, catalog *Catalog) (*Declarations, error) {
	if err := checkSupported(req, caps); err != nil {
		return nil, err
	}
	for i, t := range req.Tools {
		if t.Kind != model.ToolApplication {
			return nil, failure(-1, -1, RuleDeclarations, "tool %d %q is the %s tool: Prepare takes the application's tools only (use Check for a prepared request)", i, t.Name, kindName(t.Kind))
		}
	}
	opts := requestOptions(req, caps)
	if catalog != nil {
		opts.Permitted = catalog
	}
	d, err := Declare(req.Tools, req.Messages, opts)
	if err != nil {
		return nil, err
	}
	deferred := req.Discovery.Deferred
	switch {
	case catalog != nil && req.Discovery.Enabled:
		if len(deferred) > 0 {
			return nil, failure(-1, -1, RuleDeferred, "the request lists %d deferred tools and a catalog is given; give one or the other", len(deferred))
		}
		for _, t := range req.Tools {
			if catalog.Permits(t.Name) {
				return nil, failure(-1, -1, RuleDeferred, "application tool %q is also in the deferred catalog", t.Name)
			}
		}
		deferred = catalog.Deferred()
	default:
		if err := checkDeferred(req, true); err != nil {
			return nil, err
		}
	}
	if err := CheckToolChoice(req.ToolChoice, d.Tools); err != nil {
		return nil, err
	}
	req.Tools = d.Tools
	req.Discovery.Deferred = deferred
	return d, nil
}

// Check verifies a request that Prepare made ready, as a provider adapter
// does before rendering it: the history passes ValidateHistory; req.Tools is
// exactly what Declare decides for the application's tools in it, when the
// discovered tools permitted are those it declares (so Check never adds a
// tool that Prepare withheld); the deferred tools have usable, distinct
// names; the tool choice passes CheckToolChoice. Errors are those of
// Prepare.
func Check(req *model.Request, caps model.Capabilities) error {
	return check(req, caps, nil)
}

// RequestChecker is Check with a memory of the parameter schemas that
// passed their checks, so that the application's tools and the snapshots
// in a growing history are compiled once rather than on every request. It
// is safe for concurrent use and the zero value is ready; a provider
// adapter keeps one per client. It keeps every schema it checked.
type RequestChecker struct {
	memo schemaMemo
}

// Check is the package's Check, remembering schemas across calls.
func (c *RequestChecker) Check(req *model.Request, caps model.Capabilities) error {
	return check(req, caps, &c.memo)
}

func check(req *model.Request, caps model.Capabilities, memo *schemaMemo) error {
	if err := checkSupported(req, caps); err != nil {
		return err
	}
	var app []model.ToolDefinition
	declared := make(nameSet)
	for _, t := range req.Tools {
		switch t.Kind {
		case model.ToolApplication:
			app = append(app, t)
		case model.ToolDiscovered:
			declared[t.Name] = true
		}
	}
	opts := requestOptions(req, caps)
	opts.Permitted = declared
	d, err := declare(app, req.Messages, opts, memo)
	if err != nil {
		return err
	}
	if err := sameTools(req.Tools, d.Tools); err != nil {
		return err
	}
	if err := checkDeferred(req, false); err != nil {
		return err
	}
	return CheckToolChoice(req.ToolChoice, req.Tools)
}

func requestOptions(req *model.Request, caps model.Capabilities) Options {
	return Options{
		Enabled:          req.Discovery.Enabled,
		Description:      req.Discovery.Description,
		StructuredOutput: req.ResponseFormat != nil,
		Strict:           caps.Strict,
	}
}

func checkSupported(req *model.Request, caps model.Capabilities) error {
	if req.Discovery.Enabled && caps.Discovery == model.DiscoveryUnsupported {
		return fmt.Errorf("discovery: model %q: %w", req.Model, model.ErrToolSearchUnsupported)
	}
	return nil
}

// nameSet permits the names it holds.
type nameSet map[string]bool

// Permits reports whether the set holds name.
func (s nameSet) Permits(name string) bool { return s[name] }

// sameTools reports the first difference between declared tools and the
// tools Declare decides.
func sameTools(got, want []model.ToolDefinition) error {
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return failure(-1, -1, RuleDeclarations, "the request does not declare the %s tool %q at position %d", kindName(want[i].Kind), want[i].Name, i)
		case i >= len(want):
			return failure(-1, -1, RuleDeclarations, "the request declares the %s tool %q at position %d, which the history does not call for", kindName(got[i].Kind), got[i].Name, i)
		}
		g, w := &got[i], &want[i]
		if g.Name != w.Name || g.Kind != w.Kind {
			return failure(-1, -1, RuleDeclarations, "tool %d is the %s tool %q, want the %s tool %q", i, kindName(g.Kind), g.Name, kindName(w.Kind), w.Name)
		}
		if g.Description != w.Description || !bytes.Equal(g.Parameters, w.Parameters) || g.Strict != w.Strict || g.Namespace != w.Namespace {
			want := "its latest snapshot in the history"
			switch w.Kind {
			case model.ToolDiscovery:
				want = "the discovery tool that discovery.Tool returns for the request's description"
			case model.ToolDiscovered:
				if w.Strict != g.Strict {
					want = fmt.Sprintf("its latest snapshot in the history, declared strict=%v for the model's strict limits", w.Strict)
				}
			}
			return failure(-1, -1, RuleDeclarations, "tool %d %q differs from %s", i, g.Name, want)
		}
	}
	return nil
}

// checkDeferred checks the deferred tools of a request: only with discovery
// on, distinct portable names that are not reserved and that no declared
// tool has, and, when full, parameters that pass CheckParameters.
func checkDeferred(req *model.Request, full bool) error {
	deferred := req.Discovery.Deferred
	if len(deferred) == 0 {
		return nil
	}
	if !req.Discovery.Enabled {
		return failure(-1, -1, RuleDeferred, "the request lists %d deferred tools but discovery is off", len(deferred))
	}
	names := make(map[string]bool, len(req.Tools)+len(deferred))
	for _, t := range req.Tools {
		if t.Kind == model.ToolApplication {
			names[t.Name] = true
		}
	}
	for i := range deferred {
		t := &deferred[i]
		if err := ValidateName(t.Name); err != nil {
			return failure(-1, -1, RuleDeferred, "deferred tool %d: %v", i, err)
		}
		if IsReserved(t.Name) {
			return failure(-1, -1, RuleReservedName, "deferred tool %d uses the reserved name %q", i, t.Name)
		}
		if names[t.Name] {
			return failure(-1, -1, RuleDeferred, "deferred tool %q is also declared as an application tool or listed twice", t.Name)
		}
		names[t.Name] = true
		if full {
			if err := CheckParameters(t.Parameters); err != nil {
				return failure(-1, -1, RuleParameters, "deferred tool %q: %v", t.Name, err)
			}
			if t.Strict {
				if err := CheckStrictSchema(t.Parameters); err != nil {
					return failure(-1, -1, RuleStrictSchema, "strict deferred tool %q: %v", t.Name, err)
				}
			}
		}
	}
	return nil
}
