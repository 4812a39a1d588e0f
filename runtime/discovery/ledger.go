package discovery

// Declaring for a history that grows. An agent runtime appends a few
// messages per planning step and declares tools before every step; reading
// the whole history again each time (Declare) costs in proportion to the
// conversation. A Ledger keeps what the history discovered up to date as
// messages are appended, and Ledger.Declare decides the declarations with
// the same function as Declare, over the smallest history that discovered
// the same tools: one discovery call answered by the latest snapshot of
// each name, in order of first discovery. Declare depends on a history only
// through Discovered, and Discovered of that history is the ledger's tools,
// so both give the same declarations; there is one rule, not two.

import (
	"bytes"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Declarer remembers which parameter schemas passed their checks, for the
// ledgers made with NewLedger, so that application tools and snapshots
// declared on every planning step are compiled once. It is safe for
// concurrent use and the zero value is ready. Like RequestChecker, it keeps
// every schema it checked: share one among the runs of one set of tools.
type Declarer struct {
	memo schemaMemo
}

// NewLedger returns an empty ledger that checks schemas through d.
func (d *Declarer) NewLedger() *Ledger {
	return &Ledger{memo: &d.memo}
}

// Ledger is the tools a growing history discovered: for each name returned
// by a discovery result, its latest snapshot, in order of first discovery,
// as Discovered returns them for the whole history. It belongs to one
// history (one goroutine at a time). The zero value is an empty ledger
// that checks every schema each time; Declarer.NewLedger gives one that
// remembers.
type Ledger struct {
	memo     *schemaMemo
	messages int // messages appended so far, to locate failures
	tools    []model.ToolSnapshot
	pos      map[string]int
	revision int // counts changes of tools
}

// Append records the discovery results of msgs, the next messages of the
// ledger's history. Every snapshot they return must pass CheckSnapshot;
// the first that does not is a *model.ValidationError locating it in the
// whole history, and leaves the ledger unchanged. Append does not check
// the rest of what ValidateHistory checks (roles, pairing of calls and
// results): the history's owner does that once, where the messages come
// from outside.
func (l *Ledger) Append(msgs ...model.Message) error {
	for i := range msgs {
		m := &msgs[i]
		if m.Role != model.RoleDiscovery {
			continue
		}
		for j := range m.Parts {
			r := m.Parts[j].DiscoveryResult
			if r == nil {
				continue
			}
			for k := range r.Tools {
				if err := checkResultTool(r, k, l.messages+i, j, l.memo); err != nil {
					return err
				}
			}
		}
	}
	l.messages += len(msgs)
	for _, s := range Discovered(msgs) {
		if k, ok := l.pos[s.Name]; ok {
			if !SameSnapshot(l.tools[k], s) {
				l.tools[k] = s
				l.revision++
			}
			continue
		}
		if l.pos == nil {
			l.pos = make(map[string]int)
		}
		l.pos[s.Name] = len(l.tools)
		l.tools = append(l.tools, s)
		l.revision++
	}
	return nil
}

// Revision identifies the state of the discovered tools: it changes when
// Append records a tool or a snapshot that declares a tool differently, and
// only then, so that a decision made for one revision holds until the next.
func (l *Ledger) Revision() int { return l.revision }

// SameSnapshot reports whether two snapshots declare a tool the same way:
// the same name, description, namespace, strictness and parameter bytes.
func SameSnapshot(a, b model.ToolSnapshot) bool {
	return a.Name == b.Name && a.Description == b.Description && a.Namespace == b.Namespace &&
		(a.Strict == nil) == (b.Strict == nil) && (a.Strict == nil || *a.Strict == *b.Strict) &&
		bytes.Equal(a.Parameters, b.Parameters)
}

// Len returns the number of tools discovered.
func (l *Ledger) Len() int { return len(l.tools) }

// Snapshot returns the latest snapshot of the discovered tool the model
// knows as name. A call to a discovered tool binds to it.
func (l *Ledger) Snapshot(name string) (model.ToolSnapshot, bool) {
	k, ok := l.pos[name]
	if !ok {
		return model.ToolSnapshot{}, false
	}
	return l.tools[k], true
}

// Discovered returns a copy of the discovered tools: what Discovered returns
// for the ledger's history.
func (l *Ledger) Discovered() []model.ToolSnapshot { return slices.Clone(l.tools) }

// Declare decides what a request with the ledger's history declares: the
// result and errors of Declare(app, history, opts) for a history that
// passes ValidateHistory. It costs in proportion to app and the discovered
// tools, not to the history.
//
// The smallest history that discovered the ledger's tools is one discovery
// call answered by them, and Append already checked every one of them:
// that history passes ValidateHistory, so Ledger.Declare goes straight to
// the decision Declare makes after validating, over the tools Discovered
// would return for it.
func (l *Ledger) Declare(app []model.ToolDefinition, opts Options) (*Declarations, error) {
	return declareDiscovered(app, l.tools, opts, l.memo)
}
