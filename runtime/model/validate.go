package model

import (
	"encoding/json"
	"fmt"
)

// Validate checks the structure of one message: a known role, parts allowed
// in that role and well formed (ids, names, arguments), call ids unique
// within the message, and discovery results that list each name once and
// carry tools or a note but not both. A returned error is a
// *ValidationError with Message -1.
func (m Message) Validate() error {
	return m.validate(-1)
}

// ValidateMessages validates each message (see Message.Validate) and
// reports the first failure with its message index.
func ValidateMessages(msgs []Message) error {
	for i, m := range msgs {
		if err := m.validate(i); err != nil {
			return err
		}
	}
	return nil
}

func (m Message) validate(index int) error {
	fail := func(part int, rule Rule, format string, args ...any) error {
		return &ValidationError{Message: index, Part: part, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if !m.Role.known() {
		return fail(-1, RuleRole, "unknown role %q", m.Role)
	}
	callIDs := make(map[string]int)
	for i := range m.Parts {
		p := &m.Parts[i]
		if err := p.checkShape(); err != nil {
			return fail(i, RulePartKind, "%v", err)
		}
		if !m.Role.allows(p.Kind) {
			return fail(i, RulePartKind, "a %s message cannot hold a %s part", m.Role, p.Kind)
		}
		var id string
		switch p.Kind {
		case PartToolCall:
			c := p.ToolCall
			id = c.ID
			if c.Name == "" {
				return fail(i, RuleToolName, "tool call %q has no name", c.ID)
			}
			switch {
			case len(c.Arguments) > 0 && c.MalformedArguments != "":
				return fail(i, RuleArguments, "tool call %q has both arguments and malformed arguments", c.ID)
			case len(c.Arguments) == 0 && c.MalformedArguments == "":
				return fail(i, RuleArguments, "tool call %q has no arguments", c.ID)
			case len(c.Arguments) > 0 && !json.Valid(c.Arguments):
				return fail(i, RuleArguments, "tool call %q arguments are not valid JSON", c.ID)
			}
		case PartDiscoveryCall:
			c := p.DiscoveryCall
			id = c.ID
			if len(c.Names) == 0 && c.Query == "" && !c.Hosted {
				return fail(i, RuleDiscoveryCall, "discovery call %q has neither names nor a query", c.ID)
			}
			for j, n := range c.Names {
				if n == "" {
					return fail(i, RuleDiscoveryCall, "discovery call %q: name %d is empty", c.ID, j)
				}
			}
		case PartToolResult:
			r := p.ToolResult
			if r.CallID == "" {
				return fail(i, RuleCallID, "tool result has no call id")
			}
			if r.Name == "" {
				return fail(i, RuleToolName, "tool result for %q has no name", r.CallID)
			}
		case PartDiscoveryResult:
			if err := checkDiscoveryResult(p.DiscoveryResult); err != nil {
				err.Message, err.Part = index, i
				return err
			}
		}
		if p.Kind == PartToolCall || p.Kind == PartDiscoveryCall {
			if id == "" {
				return fail(i, RuleCallID, "%s has no id", p.Kind)
			}
			if prev, dup := callIDs[id]; dup {
				return fail(i, RuleDuplicateCallID, "call id %q is also used by part %d", id, prev)
			}
			callIDs[id] = i
		}
	}
	return nil
}

func checkDiscoveryResult(r *DiscoveryResult) *ValidationError {
	fail := func(rule Rule, format string, args ...any) *ValidationError {
		return &ValidationError{Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if r.CallID == "" {
		return fail(RuleCallID, "discovery result has no call id")
	}
	if len(r.Tools) > 0 && r.Note != "" {
		return fail(RuleNoteWithTools, "discovery result for %q has both tools and a note", r.CallID)
	}
	seen := make(map[string]bool, len(r.Tools))
	for _, s := range r.Tools {
		if seen[s.Name] {
			return fail(RuleDuplicateSnapshot, "discovery result for %q lists %q twice", r.CallID, s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}
