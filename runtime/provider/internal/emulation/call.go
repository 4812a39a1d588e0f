package emulation

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// arguments is the JSON object a model passes to the discovery tool (see
// discovery.Tool for its schema and discovery.ParseCall for its decoding).
type arguments struct {
	Query string   `json:"query,omitempty"`
	Names []string `json:"names,omitempty"`
}

// Arguments returns the JSON text of c's arguments as the discovery tool
// receives them: {"query":"...","names":[...]}, each member only when set.
// discovery.ParseCall decodes it back to c.
func Arguments(c model.DiscoveryCall) string {
	b, err := json.Marshal(arguments{Query: c.Query, Names: c.Names})
	if err != nil {
		// A struct of strings always encodes.
		panic(fmt.Sprintf("emulation: encode discovery arguments: %v", err))
	}
	return string(b)
}
