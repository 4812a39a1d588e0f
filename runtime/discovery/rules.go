package discovery

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Rules checked by this package, reported in *model.ValidationError.Rule.
// The structural rules of single messages (duplicate call ids, a note with
// tools, a name listed twice in one result) are package model's and keep
// its Rule constants.
const (
	// RuleReservedName: an application tool, a deferred tool or a snapshot
	// uses a name this package reserves (see IsReserved).
	RuleReservedName model.Rule = "reserved_name"
	// RuleUnanswered: a tool call or discovery call has no result before
	// the next user, system or assistant message, or before the history
	// ends.
	RuleUnanswered model.Rule = "unanswered_call"
	// RuleOrphanResult: a result answers no call of the preceding assistant
	// message, or answers a call of the other kind.
	RuleOrphanResult model.Rule = "orphan_result"
	// RuleAnsweredTwice: a result answers a call that is already answered.
	RuleAnsweredTwice model.Rule = "answered_twice"
	// RuleSnapshotName: a snapshot or deferred tool name is not portable,
	// so some provider would reject it.
	RuleSnapshotName model.Rule = "snapshot_name"
	// RuleParameters: a tool's parameters are not a plain, self-contained
	// JSON Schema with "type": "object" at the root.
	RuleParameters model.Rule = "parameters"
	// RuleStrictSchema: a strict tool's parameters are outside the
	// strict-capable schema contract (see CheckStrictSchema).
	RuleStrictSchema model.Rule = "strict_schema"
	// RuleStrictLimit: the application declares more strict tools than the
	// model accepts, or strict tools on a model without strict support.
	RuleStrictLimit model.Rule = "strict_limit"
	// RuleToolName: a declared tool has no name or shares one with another
	// declared tool.
	RuleToolName model.Rule = "tool_name"
	// RuleToolKind: a tool given as an application tool has another kind.
	RuleToolKind model.Rule = "tool_kind"
	// RuleToolChoice: the tool choice is unknown, incomplete, forces a
	// tool that is not one of the application's tools, or is not honoured
	// by a response.
	RuleToolChoice model.Rule = "tool_choice"
	// RuleDeclarations: a prepared request's tools are not what Declare
	// decides for its history.
	RuleDeclarations model.Rule = "declarations"
	// RuleDeferred: the deferred catalog of a request is set twice or holds
	// an unusable tool.
	RuleDeferred model.Rule = "deferred"
)

// failure returns a *model.ValidationError for message msg and part part
// (-1 when not about one).
func failure(msg, part int, rule model.Rule, format string, args ...any) *model.ValidationError {
	return &model.ValidationError{Message: msg, Part: part, Rule: rule, Detail: fmt.Sprintf(format, args...)}
}
