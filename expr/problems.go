package expr

import (
	"cmp"
	"fmt"
	"slices"

	"goa.design/goa/v3/eval"
)

// problem is one validation error and where it is reported.
type problem struct {
	site Site
	err  error
}

// problems collects the validation errors of a whole design so that a single
// run reports all of them, in design file and line order.
type problems struct {
	list []problem
}

// add records an error against expression e at design location at.
func (p *problems) add(e eval.Expression, at Location, format string, args ...any) {
	p.list = append(p.list, problem{site: Site{Expr: e, At: at}, err: fmt.Errorf(format, args...)})
}

// err returns the collected errors as *eval.ValidationErrors ordered by
// location (stable for errors on the same line), or nil when there are none.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	sorted := slices.Clone(p.list)
	slices.SortStableFunc(sorted, func(a, b problem) int {
		if c := cmp.Compare(a.site.At.File, b.site.At.File); c != 0 {
			return c
		}
		return cmp.Compare(a.site.At.Line, b.site.At.Line)
	})
	verr := &eval.ValidationErrors{}
	for _, pr := range sorted {
		verr.AddError(pr.site, pr.err)
	}
	return verr
}
