package expr

import (
	"fmt"
	"net/url"

	"goa.design/goa/v3/eval"
)

// RegistryExpr is a tool registry: a service that publishes toolset schemas
// and that agents resolve toolsets from at run time.
type RegistryExpr struct {
	eval.DSLFunc
	metaHolder
	strayVersion
	// Name is the registry name.
	Name string
	// Description describes the registry (Goa's Description).
	Description string
	// URL is the registry endpoint (Goa's URL), absolute http or https.
	URL string
	// URLAt is where URL was called.
	URLAt Location
	// At is where the registry is declared.
	At Location

	// repeatedURLs are the URL calls after the first, kept for rejection: a
	// registry has one endpoint and a later URL must not silently replace it.
	repeatedURLs []valueDecl
	urlSet       bool
}

// RegistrySource is a toolset published in a registry, as FromRegistry
// returns it. It is a value, not an expression: a Toolset declares the local
// reference to it.
type RegistrySource struct {
	// Registry is the registry that publishes the toolset.
	Registry *RegistryExpr
	// Toolset is the toolset name in the registry.
	Toolset string
	// At is where FromRegistry was called.
	At Location
}

// EvalName returns the registry name for error messages.
func (r *RegistryExpr) EvalName() string { return fmt.Sprintf("registry %q", r.Name) }

// SetDescription implements goaexpr.DescriptionHolder.
func (r *RegistryExpr) SetDescription(d string) { r.Description = d }

// SetURL implements goaexpr.URLHolder. The first call sets the URL; later
// calls are recorded and rejected by validation.
func (r *RegistryExpr) SetURL(u string) {
	if r.urlSet {
		r.repeatedURLs = append(r.repeatedURLs, valueDecl{value: u, at: DesignLocation()})
		return
	}
	r.URL, r.URLAt, r.urlSet = u, DesignLocation(), true
}

// validate checks the registry URL and Version misuse.
func (r *RegistryExpr) validate(p *problems) {
	r.strayVersion.validate(p, r)
	for _, u := range r.repeatedURLs {
		p.add(r, u.at, "URL(%q) repeats the URL (first set to %q at %s): a registry has one endpoint", u.value, r.URL, r.URLAt)
	}
	if !r.urlSet {
		p.add(r, r.At, "no URL: declare URL(\"https://...\") in the registry DSL")
		return
	}
	if err := checkRegistryURL(r.URL); err != nil {
		p.add(r, r.URLAt, "%v", err)
	}
}

// checkRegistryURL accepts absolute http and https URLs with a host.
func checkRegistryURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("invalid URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("URL %q must be absolute with scheme http or https", raw)
	}
	if u.Host == "" {
		return fmt.Errorf("URL %q has no host", raw)
	}
	return nil
}
