package codegen

import "github.com/goa-discovery/goa-discovery/expr"

// DeclaredTypes returns, for each local toolset of root, the names of the
// struct types its generated package declares, in declaration order.
func DeclaredTypes(root *expr.RootExpr) (map[string][]string, error) {
	d, err := buildIR(root, "example.com/declared")
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, ts := range d.toolsets {
		names := []string{}
		for _, nt := range ts.types {
			names = append(names, nt.name)
		}
		out[ts.name] = names
	}
	return out, nil
}
