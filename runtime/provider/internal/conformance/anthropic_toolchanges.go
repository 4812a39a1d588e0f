package conformance

import (
	"fmt"
	"strings"
)

// Rules of Anthropic's mid-conversation system messages and tool changes:
// system-role messages in messages, carrying text, tool_addition and
// tool_removal blocks.

const docMidConversation = "https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages"

// toolChangeBeta is the anthropic-beta value that tool_addition and
// tool_removal blocks need.
const toolChangeBeta = "mid-conversation-tool-changes-2026-07-01"

func toolChangeRules() []Rule {
	return []Rule{
		{ID: "system-message-placement", Provider: Anthropic, Source: docMidConversation + " (Limitations: a system message is not first, immediately follows a user turn or an assistant turn ending in a server tool result, and precedes an assistant turn or ends the messages; consecutive ones count as one)",
			Check: checkSystemPlacement},
		{ID: "tool-change-declared", Provider: Anthropic, Source: docMidConversation + " (Mid-conversation tool changes: a tool_addition or tool_removal references by tool_reference a tool declared in tools)",
			Check: checkToolChanges},
	}
}

// isToolChange reports whether a block is a tool_addition or tool_removal.
func isToolChange(b map[string]any) bool {
	return b["type"] == "tool_addition" || b["type"] == "tool_removal"
}

// usesToolChanges reports whether a request carries tool change blocks.
func usesToolChanges(r *Request) bool {
	found := false
	_ = eachBlock(r, func(_ string, b map[string]any) error {
		found = found || isToolChange(b)
		return nil
	})
	return found
}

func checkSystemPlacement(r *Request) error {
	msgs := list(r.Body["messages"])
	role := func(i int) string { return str(object(msgs[i])["role"]) }
	for i := 0; i < len(msgs); i++ {
		if role(i) != "system" {
			continue
		}
		j := i
		for j+1 < len(msgs) && role(j+1) == "system" {
			j++
		}
		if i == 0 {
			return fmt.Errorf("messages[0] is a system message")
		}
		after := role(i - 1)
		if after == "assistant" {
			content := list(object(msgs[i-1])["content"])
			if n := len(content); n > 0 && strings.HasSuffix(str(object(content[n-1])["type"]), "_tool_result") {
				after = "server tool result"
			}
		}
		if after != "user" && after != "server tool result" {
			return fmt.Errorf("system message %d follows a %s turn", i, after)
		}
		if j+1 < len(msgs) && role(j+1) != "assistant" {
			return fmt.Errorf("system message %d is followed by a %s turn", j, role(j+1))
		}
		i = j
	}
	return nil
}

func checkToolChanges(r *Request) error {
	declared := map[string]bool{}
	for _, t := range list(r.Body["tools"]) {
		if n := str(object(t)["name"]); n != "" {
			declared[n] = true
		}
	}
	return eachBlock(r, func(role string, b map[string]any) error {
		if !isToolChange(b) {
			return nil
		}
		if role != "system" {
			return fmt.Errorf("%s block in a %s turn", b["type"], role)
		}
		ref := object(b["tool"])
		if ref["type"] == "tool_reference" && !declared[str(ref["name"])] {
			return fmt.Errorf("%s of undeclared tool %q", b["type"], ref["name"])
		}
		return nil
	})
}
