package runtime

// The executable contract of a catalog tool. A local tool whose model
// schema is its payload schema decodes with the codecs its registration
// gave; every other tool (a registry tool, a local tool with server-only
// fields) decodes with the spec that contract.Compile makes of its record:
// its payload codec validates what the model may send and refuses the
// fields the server fills. Compiling a schema costs far more than a step,
// so a tool is compiled the first time a call needs it, once for every run
// that shares its catalog.

import (
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// compiledContract is a tool record compiled on first use.
type compiledContract struct {
	once sync.Once
	spec *tools.ToolSpec
	err  error
}

// payloadSpec returns the spec that decodes the tool's calls.
func (t *catalogTool) payloadSpec() (*tools.ToolSpec, error) {
	if t.local != nil && !hasServerOnly(t.schema.Contract) {
		return t.local.specs[t.id], nil
	}
	t.compiled.once.Do(func() {
		t.compiled.spec, t.compiled.err = contract.Compile(t.schema)
		if t.compiled.err != nil {
			t.compiled.err = fmt.Errorf("%w: %s tool %q: contract: %w", ErrCatalog, t.source, t.id, t.compiled.err)
		}
	})
	return t.compiled.spec, t.compiled.err
}

func hasServerOnly(c *tools.Contract) bool { return c != nil && len(c.ServerOnlyFields) > 0 }
