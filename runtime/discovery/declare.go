package discovery

import (
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Permitter says which discovered tools a run may use. *Catalog implements
// it.
type Permitter interface {
	// Permits reports whether the tool the model knows as name may be
	// declared.
	Permits(name string) bool
}

// Options says what Declare declares besides the application's tools.
type Options struct {
	// Enabled declares the discovery tool.
	Enabled bool
	// Description is the application's text, appended to the discovery
	// tool's description.
	Description string
	// StructuredOutput is set for requests that ask for structured output:
	// they declare no discovered tools.
	StructuredOutput bool
	// Strict is the model's strict-tool support; beyond it, discovered
	// tools are declared non-strict in order of first discovery.
	Strict model.StrictLimits
	// Permitted, when not nil, filters the discovered tools: a snapshot in
	// the history whose name it does not permit is withheld, never
	// declared. Nil permits every tool discovered in the history.
	Permitted Permitter
}

// Declarations is what a request declares, with what Declare left out and
// why.
type Declarations struct {
	// Tools are the declared tools in order: the application's tools, the
	// discovery tool when discovery is on, then the discovered tools by
	// latest snapshot, in order of first discovery.
	Tools []model.ToolDefinition
	// Withheld are the discovered names that Options.Permitted does not
	// permit, in order of first discovery.
	Withheld []string
	// Shadowed are the discovered names an application tool has; the
	// application's tool is declared.
	Shadowed []string
	// NonStrict are the discovered tools whose snapshots ask for strict
	// schemas but are declared non-strict: the model supports no strict
	// tools, or the request already has as many as it accepts.
	NonStrict []string
}

// Declare decides what a request declares. It is the one place that does:
// the agent runtime and applications reach it through Prepare, provider
// adapters through Check.
//
// The history must pass ValidateHistory and the application's tools must
// be well formed: kind model.ToolApplication, distinct non-empty names that
// are not reserved, parameters that pass CheckParameters (and
// CheckStrictSchema when strict), and no more strict tools than the model
// accepts. Each failure is a *model.ValidationError.
//
// The declared tools are, in order:
//   - the application's tools, as given;
//   - the discovery tool (Tool) when opts.Enabled;
//   - unless opts.StructuredOutput, every tool discovered in the history
//     (see Discovered) whose name no application tool has and that
//     opts.Permitted permits: its latest snapshot, in order of first
//     discovery. Discovered tools stay declared when discovery is off.
func Declare(app []model.ToolDefinition, history []model.Message, opts Options) (*Declarations, error) {
	var memo *schemaMemo
	if c, ok := opts.Permitted.(*Catalog); ok && c != nil {
		memo = c.memo
	}
	return declare(app, history, opts, memo)
}

// declare is Declare remembering schema checks in memo (nil: none).
func declare(app []model.ToolDefinition, history []model.Message, opts Options, memo *schemaMemo) (*Declarations, error) {
	if err := validateHistory(history, memo); err != nil {
		return nil, err
	}
	return declareDiscovered(app, Discovered(history), opts, memo)
}

// declareDiscovered is declare after validating the history, given what
// Discovered returns for it. It does not modify discovered.
func declareDiscovered(app []model.ToolDefinition, discovered []model.ToolSnapshot, opts Options, memo *schemaMemo) (*Declarations, error) {
	appStrict, err := checkApplicationTools(app, memo)
	if err != nil {
		return nil, err
	}
	if appStrict > 0 && !opts.Strict.Supported {
		return nil, failure(-1, -1, RuleStrictLimit, "%d application tools are strict but the model supports no strict tools", appStrict)
	}
	if limit := opts.Strict.MaxTools; limit > 0 && appStrict > limit {
		return nil, failure(-1, -1, RuleStrictLimit, "%d application tools are strict but the model accepts at most %d", appStrict, limit)
	}
	size := len(app) + 1
	if !opts.StructuredOutput {
		size += len(discovered)
	}
	d := &Declarations{Tools: make([]model.ToolDefinition, 0, size)}
	d.Tools = append(d.Tools, app...)
	if opts.Enabled {
		d.Tools = append(d.Tools, Tool(opts.Description))
	}
	if opts.StructuredOutput {
		return d, nil
	}
	appNames := make(map[string]bool, len(app))
	for _, t := range app {
		appNames[t.Name] = true
	}
	strict := appStrict
	for _, s := range discovered {
		switch {
		case appNames[s.Name]:
			d.Shadowed = append(d.Shadowed, s.Name)
			continue
		case opts.Permitted != nil && !opts.Permitted.Permits(s.Name):
			d.Withheld = append(d.Withheld, s.Name)
			continue
		}
		def := s.Definition()
		// Walking in order of first discovery, the tools past the limit
		// lose strictness: a new discovery never changes how an earlier
		// tool is declared, so earlier declarations keep their bytes.
		if def.Strict {
			if !opts.Strict.Supported || (opts.Strict.MaxTools > 0 && strict >= opts.Strict.MaxTools) {
				def.Strict = false
				d.NonStrict = append(d.NonStrict, s.Name)
			} else {
				strict++
			}
		}
		d.Tools = append(d.Tools, def)
	}
	return d, nil
}

// Discovered returns the tools discovered in the history: for each name
// returned by a discovery result, its latest snapshot, in order of first
// discovery. A call to a discovered tool binds to the snapshot returned
// here.
func Discovered(history []model.Message) []model.ToolSnapshot {
	// Room for every snapshot: names are rarely discovered twice.
	n := 0
	for i := range history {
		m := &history[i]
		if m.Role != model.RoleDiscovery {
			continue
		}
		for j := range m.Parts {
			if r := m.Parts[j].DiscoveryResult; r != nil {
				n += len(r.Tools)
			}
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]model.ToolSnapshot, 0, n)
	pos := make(map[string]int, n)
	for i := range history {
		m := &history[i]
		if m.Role != model.RoleDiscovery {
			continue
		}
		for j := range m.Parts {
			r := m.Parts[j].DiscoveryResult
			if r == nil {
				continue
			}
			for _, s := range r.Tools {
				if k, ok := pos[s.Name]; ok {
					out[k] = s
					continue
				}
				pos[s.Name] = len(out)
				out = append(out, s)
			}
		}
	}
	return out
}

// checkApplicationTools checks the application's tools and counts the
// strict ones.
func checkApplicationTools(app []model.ToolDefinition, memo *schemaMemo) (int, error) {
	names := make(map[string]int, len(app))
	strict := 0
	for i := range app {
		t := &app[i]
		switch {
		case t.Kind != model.ToolApplication:
			return 0, failure(-1, -1, RuleToolKind, "application tool %d %q has kind %q", i, t.Name, t.Kind)
		case t.Name == "":
			return 0, failure(-1, -1, RuleToolName, "application tool %d has no name", i)
		case IsReserved(t.Name):
			return 0, failure(-1, -1, RuleReservedName, "application tool %d uses the reserved name %q", i, t.Name)
		}
		if j, dup := names[t.Name]; dup {
			return 0, failure(-1, -1, RuleToolName, "application tools %d and %d are both named %q", j, i, t.Name)
		}
		names[t.Name] = i
		if err := memo.check(t.Parameters, t.Strict); err != nil {
			return 0, schemaFailure(err, -1, -1, "application tool "+quote(t.Name))
		}
		if t.Strict {
			strict++
		}
	}
	return strict, nil
}
