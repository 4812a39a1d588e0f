package anthropic

// Mid-conversation tool changes. On the models that accept them
// (toolChanges), native discovery with client search keeps the tools array
// of a conversation byte for byte when the run's permitted catalog changes
// between steps: a discovered tool the run no longer permits stays
// declared (deferred, at the place it had) and is withdrawn by a
// tool_removal block; when it is permitted again a tool_addition block
// offers it again. The blocks travel in a system-role message appended
// after the request's last user turn, so everything the previous request
// sent stays its prefix. The change is recorded in the Meta of the
// assistant message that answers the request (MetaToolChanges), and a
// stored history renders the same system message at the same place again,
// whatever the permitted catalog is by then.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// MetaToolChanges is the key of a tool change record in the Meta of an
// assistant message: the tool_removal and tool_addition blocks sent in a
// system-role message before it, and where the discovered tools stand among
// the deferred declarations.
const MetaToolChanges = "tool_changes"

// BetaToolChanges is the anthropic-beta value a request carrying tool
// changes sends.
const BetaToolChanges = anthropic.AnthropicBetaMidConversationToolChanges2026_07_01

// RuleToolChanges: a tool change record in the history can be read, and a
// tool change follows a user turn.
const RuleToolChanges model.Rule = "anthropic_tool_changes"

// ErrToolRedefined is matched by every *ToolRedefinedError.
var ErrToolRedefined = errors.New("anthropic: tool redefined during the conversation")

// ToolRedefinedError reports a discovered tool whose definition changed
// during a conversation that renders catalog changes as mid-conversation
// tool changes. The protocol adds and removes tools by name, with the
// definition declared in the tools array: a new definition under a name the
// conversation keeps cannot be expressed without rewriting the cached
// prefix. It matches ErrToolRedefined and model.ErrInvalidRequest; the
// request is not sent.
type ToolRedefinedError struct {
	// Name is the tool the history holds two definitions of.
	Name string
	// Message is the history message holding the new definition.
	Message int
}

func (e *ToolRedefinedError) Error() string {
	return fmt.Sprintf("%s: message %d: tool %q has a new definition; mid-conversation tool changes add and remove tools by name and cannot redefine one: start a new conversation, or compact the history so that it keeps one definition of %q", Provider, e.Message, e.Name, e.Name)
}

// Is makes the error match ErrToolRedefined and model.ErrInvalidRequest.
func (e *ToolRedefinedError) Is(target error) bool {
	return target == ErrToolRedefined || target == model.ErrInvalidRequest
}

// toolChangeRecord is one answer's record under MetaToolChanges.
type toolChangeRecord struct {
	// Slots are the places of discovered tools among the deferred
	// declarations, recorded on the first answer after their discovery, so
	// that a tool withdrawn later stays declared where it was.
	Slots []toolSlot `json:"slots,omitempty"`
	// Removed are the tools the system message withdrew, in order.
	Removed []string `json:"removed,omitempty"`
	// Added are the tools it offered again, in order.
	Added []string `json:"added,omitempty"`
}

type toolSlot struct {
	Name  string `json:"name"`
	Index int    `json:"index"`
}

// changes reports whether the record stands for a system message.
func (r *toolChangeRecord) changes() bool { return len(r.Removed)+len(r.Added) > 0 }

// slotted is a withdrawn tool kept among the deferred declarations at
// index (-1: after the others).
type slotted struct {
	def   model.ToolDefinition
	index int
}

// toolChangePlan is what tool changes make of one request.
type toolChangePlan struct {
	// at maps the index of a history message to the system message
	// rendered before it.
	at map[int]toolChangeRecord
	// pending is the system message this request appends, if it changes
	// anything, with the slots to record.
	pending toolChangeRecord
	// record is pending encoded for the answer's Meta, nil when there is
	// nothing to record.
	record json.RawMessage
}

// before returns the system message rendered before history message i; a
// nil plan has none.
func (p *toolChangePlan) before(i int) (toolChangeRecord, bool) {
	if p == nil {
		return toolChangeRecord{}, false
	}
	rec, ok := p.at[i]
	return rec, ok
}

// planToolChanges reads the history's tool change records, works out what
// changed since (decl is the request's declarations, classify's result),
// and sets decl.retained to the withdrawn tools that stay declared.
func planToolChanges(req *model.Request, decl *declarations) (*toolChangePlan, error) {
	p := &toolChangePlan{at: map[int]toolChangeRecord{}}
	slots := map[string]int{}
	withdrawn := map[string]bool{}
	discovered := discovery.Discovered(req.Messages)
	known := make(map[string]bool, len(discovered))
	for _, s := range discovered {
		known[s.Name] = true
	}
	for i, m := range req.Messages {
		raw, ok := m.Meta[MetaToolChanges]
		if !ok || m.Role != model.RoleAssistant {
			continue
		}
		var rec toolChangeRecord
		if err := strictjson.Decode(raw, &rec); err != nil {
			return nil, invalid(i, -1, RuleToolChanges, "the tool change record is not one: %s", raw)
		}
		if err := rec.apply(slots, withdrawn, known); err != nil {
			return nil, invalid(i, -1, RuleToolChanges, "tool change record %s: %v", raw, err)
		}
		if rec.changes() {
			p.at[i] = rec
		}
	}
	app := map[string]bool{}
	for _, t := range decl.app {
		app[t.Name] = true
	}
	if err := checkRedefined(req.Messages, app); err != nil {
		return nil, err
	}
	declared := map[string]bool{}
	for _, t := range decl.discovered {
		declared[t.Name] = true
	}
	// A structured-output request declares no discovered tools for that
	// request only: the tools the model is offered stay as they were.
	if req.ResponseFormat == nil {
		for _, s := range discovered {
			switch {
			case app[s.Name]:
			case !withdrawn[s.Name] && !declared[s.Name]:
				p.pending.Removed = append(p.pending.Removed, s.Name)
				withdrawn[s.Name] = true
			case withdrawn[s.Name] && declared[s.Name]:
				p.pending.Added = append(p.pending.Added, s.Name)
				delete(withdrawn, s.Name)
			}
		}
	}
	base := map[string]bool{}
	for _, t := range decl.deferredTools() {
		base[t.Name] = true
	}
	for _, s := range discovered {
		if withdrawn[s.Name] && !base[s.Name] && !app[s.Name] {
			idx, ok := slots[s.Name]
			if !ok {
				idx = -1
			}
			decl.retained = append(decl.retained, slotted{def: s.Definition(), index: idx})
		}
	}
	for i, t := range decl.deferredTools() {
		if declared[t.Name] {
			if _, ok := slots[t.Name]; !ok {
				p.pending.Slots = append(p.pending.Slots, toolSlot{Name: t.Name, Index: i})
			}
		}
	}
	if len(p.pending.Slots) > 0 || p.pending.changes() {
		raw, err := json.Marshal(p.pending)
		if err != nil {
			return nil, fmt.Errorf("%s: encode tool change record: %w", Provider, err)
		}
		p.record = raw
	}
	return p, nil
}

// apply applies a record of the history to the slots and the withdrawn
// tools so far. A record that names a tool the history never discovered,
// withdraws a withdrawn tool, offers again one that is offered, or gives a
// negative place was not written by this package.
func (r *toolChangeRecord) apply(slots map[string]int, withdrawn, known map[string]bool) error {
	for _, s := range r.Slots {
		if !known[s.Name] || s.Index < 0 {
			return fmt.Errorf("slot %d of tool %q", s.Index, s.Name)
		}
		if _, ok := slots[s.Name]; !ok {
			slots[s.Name] = s.Index
		}
	}
	for _, n := range r.Removed {
		if !known[n] || withdrawn[n] {
			return fmt.Errorf("withdraws %q, which is not offered", n)
		}
		withdrawn[n] = true
	}
	for _, n := range r.Added {
		if !withdrawn[n] {
			return fmt.Errorf("offers %q again, which was not withdrawn", n)
		}
		delete(withdrawn, n)
	}
	return nil
}

// checkRedefined fails when a discovery result of the history defines a
// tool (not shadowed by an application tool) otherwise than an earlier one.
func checkRedefined(msgs []model.Message, app map[string]bool) error {
	first := map[string]model.ToolSnapshot{}
	for i, m := range msgs {
		if m.Role != model.RoleDiscovery {
			continue
		}
		for _, part := range m.Parts {
			if part.DiscoveryResult == nil {
				continue
			}
			for _, s := range part.DiscoveryResult.Tools {
				old, seen := first[s.Name]
				switch {
				case !seen:
					first[s.Name] = s
				case !app[s.Name] && !discovery.SameSnapshot(old, s):
					return &ToolRedefinedError{Name: s.Name, Message: i}
				}
			}
		}
	}
	return nil
}

// withRetained returns list with the retained tools put back at their
// places: in order of place, each at its index (or at the end), which
// rebuilds the declarations they were withdrawn from.
func withRetained(list []model.ToolDefinition, retained []slotted) []model.ToolDefinition {
	if len(retained) == 0 {
		return list
	}
	sorted := slices.Clone(retained)
	slices.SortStableFunc(sorted, func(a, b slotted) int {
		switch {
		case a.index == b.index:
			return 0
		case a.index < 0:
			return 1
		case b.index < 0:
			return -1
		}
		return a.index - b.index
	})
	for _, r := range sorted {
		at := r.index
		if at < 0 || at > len(list) {
			at = len(list)
		}
		list = slices.Insert(list, at, r.def)
	}
	return list
}

// toolChangeMessage renders a record as the system message carrying its
// tool_removal and tool_addition blocks.
func toolChangeMessage(rec toolChangeRecord, names *names) anthropic.BetaMessageParam {
	var content []anthropic.BetaSystemMessageParamContentUnion
	for _, n := range rec.Removed {
		content = append(content, anthropic.BetaSystemMessageParamContentUnion{OfToolRemoval: &anthropic.BetaRequestToolRemovalBlockParam{
			Tool: anthropic.BetaRequestToolRemovalBlockToolUnionParam{OfToolReference: &anthropic.BetaToolChangeToolReferenceParam{Name: names.provider(n)}},
		}})
	}
	for _, n := range rec.Added {
		content = append(content, anthropic.BetaSystemMessageParamContentUnion{OfToolAddition: &anthropic.BetaRequestToolAdditionBlockParam{
			Tool: anthropic.BetaRequestToolAdditionBlockToolUnionParam{OfToolReference: &anthropic.BetaToolChangeToolReferenceParam{Name: names.provider(n)}},
		}})
	}
	return anthropic.BetaMessageParam{OfSystem: &anthropic.BetaSystemMessageParam{Content: content}}
}
