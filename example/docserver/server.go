// The server: its two tools, their schemas as the documentation team
// publishes them, and the pages they answer from.

package docserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name and Version are what the server says of itself in the MCP
// handshake.
const (
	Name    = "docs"
	Version = "2026.11.2"
)

// The tools' schemas, as the server lists them.
const (
	searchInput  = `{"type":"object","properties":{"query":{"type":"string","description":"Keywords","minLength":1}},"required":["query"],"additionalProperties":false}`
	searchOutput = `{"type":"object","properties":{"pages":{"type":"array","items":{"type":"string"},"description":"Paths of the matching pages"}},"required":["pages"],"additionalProperties":false}`
	readInput    = `{"type":"object","properties":{"path":{"type":"string","description":"Path of the page"}},"required":["path"],"additionalProperties":false}`
)

// Page is one documentation page.
type Page struct {
	// Path identifies the page.
	Path string
	// Title is the page's title.
	Title string
	// Text is the page's text in Markdown.
	Text string
}

// Pages are the pages the server holds, sorted by path.
var Pages = []Page{
	{Path: "/billing/api-usage", Title: "How API usage is counted",
		Text: "Every request to the API counts as one API call, including requests that fail with a 4xx status; each retry counts again. " +
			"Usage is totalled per calendar month in UTC and shows in the admin console within 24 hours."},
	{Path: "/billing/exports", Title: "How exports are counted",
		Text: "Each CSV or JSON export counts once, whatever its size; a scheduled export counts at every run."},
	{Path: "/seats/invite", Title: "Inviting seats",
		Text: "Invite seats from the admin console; an invited seat counts as active from its first sign-in."},
}

// New returns the server, ready to be served over any MCP transport.
func New() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: Name, Version: Version}, nil)
	s.AddTool(&sdk.Tool{
		Name:         "search_docs",
		Description:  "Search the product documentation by keywords",
		InputSchema:  json.RawMessage(searchInput),
		OutputSchema: json.RawMessage(searchOutput),
	}, searchDocs)
	s.AddTool(&sdk.Tool{
		Name:        "read_doc",
		Description: "Read a documentation page",
		InputSchema: json.RawMessage(readInput),
	}, readDoc)
	return s
}

// decode reads a call's arguments strictly into v.
func decode(req *sdk.CallToolRequest, v any) error {
	d := json.NewDecoder(bytes.NewReader(req.Params.Arguments))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// failed is a tool result the model reads as an error.
func failed(err error) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
}

// searchDocs returns the paths of the pages whose title or text holds
// every word of the query.
func searchDocs(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var args struct {
		Query string `json:"query"`
	}
	if err := decode(req, &args); err != nil {
		return failed(err), nil
	}
	words := strings.Fields(strings.ToLower(args.Query))
	if len(words) == 0 {
		return failed(fmt.Errorf("the query holds no keyword")), nil
	}
	found := []string{}
	for _, p := range Pages {
		text := strings.ToLower(p.Title + " " + p.Text)
		if !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(text, w) }) {
			found = append(found, p.Path)
		}
	}
	out := map[string]any{"pages": found}
	text, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{StructuredContent: out, Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}, nil
}

// readDoc returns one page's text.
func readDoc(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var args struct {
		Path string `json:"path"`
	}
	if err := decode(req, &args); err != nil {
		return failed(err), nil
	}
	i := slices.IndexFunc(Pages, func(p Page) bool { return p.Path == args.Path })
	if i < 0 {
		return failed(fmt.Errorf("no page %s", args.Path)), nil
	}
	p := Pages[i]
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "# " + p.Title + "\n\n" + p.Text}}}, nil
}
