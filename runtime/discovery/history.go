package discovery

import (
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// ValidateHistory checks a conversation before any provider call. It
// reports the first broken rule as a *model.ValidationError naming the
// message and part:
//   - the structure of each message (model.ValidateMessages: roles, part
//     kinds, ids, two calls of one message with one id, a result with both
//     tools and a note, a name listed twice in one result);
//   - every tool call and discovery call of an assistant message is
//     answered before the next user, system or assistant message and
//     before the history ends (RuleUnanswered, naming the call), except a
//     hosted discovery call, which its provider answered and which a
//     result may still answer;
//   - every result answers a call of the same kind of the preceding
//     assistant message (RuleOrphanResult), once (RuleAnsweredTwice);
//   - every snapshot of a discovery result passes CheckSnapshot.
func ValidateHistory(msgs []model.Message) error {
	return validateHistory(msgs, nil)
}

func validateHistory(msgs []model.Message, memo *schemaMemo) error {
	if err := model.ValidateMessages(msgs); err != nil {
		return err
	}
	if err := checkPairing(msgs); err != nil {
		return err
	}
	for i := range msgs {
		m := &msgs[i]
		if m.Role != model.RoleDiscovery {
			continue
		}
		for j := range m.Parts {
			r := m.Parts[j].DiscoveryResult
			for k := range r.Tools {
				if err := checkResultTool(r, k, i, j, memo); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// pendingCall is a call of the current assistant message.
type pendingCall struct {
	kind     model.PartKind
	part     int
	answered bool
	// hosted marks a hosted discovery call, which may stay unanswered.
	hosted bool
}

// checkPairing matches results to calls. It expects messages that passed
// model.ValidateMessages, so call ids are unique within a message.
func checkPairing(msgs []model.Message) error {
	var (
		assistant = -1 // index of the assistant message whose calls are open
		calls     map[string]*pendingCall
		order     []string // call ids in part order, for a stable report
	)
	closeTurn := func() error {
		for _, id := range order {
			c := calls[id]
			if !c.answered && !c.hosted {
				return failure(assistant, c.part, RuleUnanswered, "%s %q has no result", c.kind, id)
			}
		}
		assistant, calls, order = -1, nil, nil
		return nil
	}
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case model.RoleTool, model.RoleDiscovery:
			for j := range m.Parts {
				id, want := resultOf(&m.Parts[j])
				if assistant < 0 {
					return failure(i, j, RuleOrphanResult, "result for %q does not follow an assistant message", id)
				}
				c, ok := calls[id]
				if !ok || c.kind != want {
					return failure(i, j, RuleOrphanResult, "result for %q answers no %s of message %d", id, want, assistant)
				}
				if c.answered {
					return failure(i, j, RuleAnsweredTwice, "%s %q of message %d is already answered", want, id, assistant)
				}
				c.answered = true
			}
		default:
			if err := closeTurn(); err != nil {
				return err
			}
			if m.Role == model.RoleAssistant {
				assistant = i
				calls = make(map[string]*pendingCall)
				for j := range m.Parts {
					p := &m.Parts[j]
					var id string
					hosted := false
					switch p.Kind {
					case model.PartToolCall:
						id = p.ToolCall.ID
					case model.PartDiscoveryCall:
						id, hosted = p.DiscoveryCall.ID, p.DiscoveryCall.Hosted
					default:
						continue
					}
					calls[id] = &pendingCall{kind: p.Kind, part: j, hosted: hosted}
					order = append(order, id)
				}
			}
		}
	}
	return closeTurn()
}

// resultOf returns the call id a result part answers and the kind of call
// it must answer.
func resultOf(p *model.Part) (string, model.PartKind) {
	if p.Kind == model.PartToolResult {
		return p.ToolResult.CallID, model.PartToolCall
	}
	return p.DiscoveryResult.CallID, model.PartDiscoveryCall
}
