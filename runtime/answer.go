package runtime

// Answering a discovery call from the step's permitted deferred catalog:
// exact names first, then the query through the catalog's search index,
// skipping tools the run may not use.

import (
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// answer answers one discovery call.
func (r *run) answer(cat *catalog, call model.DiscoveryCall) (model.DiscoveryResult, error) {
	res := model.DiscoveryResult{CallID: call.ID}
	taken := make(map[*catalogTool]bool)
	var missing []string
	for _, name := range call.Names {
		t := cat.byName[name]
		if t == nil {
			t = cat.byIdent[tools.Ident(name)]
		}
		if t == nil || !t.deferred || !r.policy.permits(t) {
			missing = append(missing, name)
			continue
		}
		if !taken[t] {
			taken[t] = true
			res.Tools = append(res.Tools, t.snapshot)
		}
	}
	limit := r.agent.reg.DiscoveryLimit
	if limit == 0 {
		limit = DefaultDiscoveryLimit
	}
	if q := strings.TrimSpace(call.Query); q != "" && len(res.Tools) < limit && len(cat.deferred) > 0 {
		ix, err := cat.searchIndex()
		if err != nil {
			return res, err
		}
		found, err := r.search(cat, ix, q, limit-len(res.Tools), taken)
		if err != nil {
			return res, err
		}
		for _, t := range found {
			res.Tools = append(res.Tools, t.snapshot)
		}
	}
	if len(res.Tools) == 0 {
		res.Note = "No tool available to this run matches."
		if len(missing) > 0 {
			res.Note = fmt.Sprintf("No tool available to this run is named %s.", strings.Join(missing, ", "))
		}
	}
	return res, nil
}

// search returns up to want permitted deferred tools matching query, best
// first, that are not taken yet. It asks the index for more results until
// enough pass policy or the index has no more.
func (r *run) search(cat *catalog, ix *toolsearch.Index, query string, want int, taken map[*catalogTool]bool) ([]*catalogTool, error) {
	var out []*catalogTool
	for k := want; ; k *= 4 {
		out = out[:0]
		results := ix.Search(query, k)
		for _, res := range results {
			t := cat.byIdent[tools.Ident(res.Name)]
			if t == nil || !t.deferred {
				return nil, fmt.Errorf("%w: search index names %q, which the catalog does not defer", ErrCatalog, res.Name)
			}
			if taken[t] || !r.policy.permits(t) {
				continue
			}
			out = append(out, t)
			if len(out) == want {
				break
			}
		}
		if len(out) == want || len(results) < k || k >= ix.Len() {
			break
		}
	}
	for _, t := range out {
		taken[t] = true
	}
	return out, nil
}
