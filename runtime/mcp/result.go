package mcp

// What the model reads of a call's result. A tool with an output schema
// answers with its structuredContent, validated against that schema;
// otherwise the result is the text of its content blocks, or, when some
// block is not text (an image, a resource), the content blocks as JSON.

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// textOf joins the text blocks of content, one a line.
func textOf(content []sdk.Content) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// resultSize is the size of the result as the server sent it, in compact
// JSON.
func resultSize(res *sdk.CallToolResult) (int, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// structured returns a result's structuredContent as JSON, or nil when the
// result has none.
func structured(res *sdk.CallToolResult) (json.RawMessage, error) {
	if res.StructuredContent == nil {
		return nil, nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, fmt.Errorf("structuredContent: %w", err)
	}
	return b, nil
}

// content returns what the model reads of a result without structured
// content.
func content(res *sdk.CallToolResult) (string, error) {
	allText := true
	for _, c := range res.Content {
		if _, ok := c.(*sdk.TextContent); !ok {
			allText = false
			break
		}
	}
	if allText {
		return textOf(res.Content), nil
	}
	b, err := json.Marshal(res.Content)
	if err != nil {
		return "", fmt.Errorf("content: %w", err)
	}
	return string(b), nil
}
