package catalogfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// ErrMalformed is wrapped by every error about the content of a file.
var ErrMalformed = errors.New("malformed file")

// lineTool is one line of a JSON lines catalog.
type lineTool struct {
	Name        *string         `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Source      string          `json:"source"` // provenance; not searched
}

// mcpList is an MCP tools/list result.
type mcpList struct {
	Tools      *[]mcpTool      `json:"tools"`
	NextCursor string          `json:"nextCursor"`
	Meta       json.RawMessage `json:"_meta"`
}

// mcpTool is an MCP tool definition. Fields other than the name, title,
// description and input schema are accepted and not searched.
type mcpTool struct {
	Name         *string         `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Icons        json.RawMessage `json:"icons"`
	Meta         json.RawMessage `json:"_meta"`
}

// ReadTools reads a tool catalog in either format. A file whose first JSON
// value spans several lines is one document, which must be an MCP
// tools/list result; otherwise a file that is a single JSON object with a
// "tools" member is one, and any other file is JSON lines. Tools keep the
// file's order.
func ReadTools(r io.Reader) ([]toolsearch.Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading tools: %w", err)
	}
	if spansLines(data) {
		return readDocument(data)
	}
	if top := listing(data); top != nil {
		return readListing(data, top)
	}
	return readLines(data)
}

// spansLines reports whether the first non-blank line of data starts a JSON
// value that it does not finish, as a pretty-printed document does.
func spansLines(data []byte) bool {
	for len(data) > 0 {
		line, rest, found := bytes.Cut(data, []byte("\n"))
		if line = bytes.TrimSpace(line); len(line) > 0 {
			var v json.RawMessage
			err := json.NewDecoder(bytes.NewReader(line)).Decode(&v)
			return found && errors.Is(err, io.ErrUnexpectedEOF)
		}
		data = rest
	}
	return false
}

// readDocument reads a multi-line file, which must be one JSON object with
// a "tools" member; a syntax error is reported with its line.
func readDocument(data []byte) ([]toolsearch.Document, error) {
	var top map[string]json.RawMessage
	if err := decodeStrict(data, &top); err != nil {
		return nil, fmt.Errorf("%w: JSON document over several lines: %w", ErrMalformed, atLine(data, err))
	}
	if _, ok := top["tools"]; !ok {
		return nil, fmt.Errorf("%w: line 1: a JSON value over several lines must be an MCP tools/list result "+
			"or a toolset's wire record, with a \"tools\" member; JSON lines hold one tool a line", ErrMalformed)
	}
	return readListing(data, top)
}

// readListing reads a document with a "tools" member: a toolset's wire
// record when it has a "name" member too, an MCP tools/list result
// otherwise.
func readListing(data []byte, top map[string]json.RawMessage) ([]toolsearch.Document, error) {
	if _, ok := top["name"]; ok {
		return readToolset(data)
	}
	return readMCP(data)
}

// atLine prefixes a JSON syntax or type error with the line of data it
// points at, and an unexpected end with the last line.
func atLine(data []byte, err error) error {
	var offset int64 = -1
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		offset = int64(len(bytes.TrimRight(data, " \t\r\n")))
	}
	if offset < 0 {
		return err
	}
	offset = min(offset, int64(len(data)))
	return fmt.Errorf("line %d: %w", 1+bytes.Count(data[:offset], []byte("\n")), err)
}

// listing returns the members of the one JSON object data holds when it
// has a "tools" member, and nil otherwise.
func listing(data []byte) map[string]json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil
	}
	if _, ok := top["tools"]; !ok {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil
	}
	return top
}

func readMCP(data []byte) ([]toolsearch.Document, error) {
	var list mcpList
	if err := decodeStrict(data, &list); err != nil {
		return nil, fmt.Errorf("%w: tools/list result: %w", ErrMalformed, atLine(data, err))
	}
	switch {
	case list.Tools == nil:
		return nil, fmt.Errorf("%w: tools/list result: \"tools\" is null", ErrMalformed)
	case len(*list.Tools) == 0:
		return nil, fmt.Errorf("%w: tools/list result: no tools", ErrMalformed)
	}
	docs := make([]toolsearch.Document, 0, len(*list.Tools))
	seen := make(map[string]int, len(*list.Tools))
	for i, t := range *list.Tools {
		where := fmt.Sprintf("tools[%d]", i)
		if err := checkName(t.Name, seen, i, func(j int) string { return fmt.Sprintf("tools[%d]", j) }); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrMalformed, where, err)
		}
		doc := toolsearch.Document{Name: *t.Name, Title: t.Title, Description: t.Description, Parameters: t.InputSchema}
		if _, err := toolsearch.Count(doc); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrMalformed, where, err)
		}
		docs = append(docs, doc)
	}
	return docs, nil
}

func readLines(data []byte) ([]toolsearch.Document, error) {
	var docs []toolsearch.Document
	seen := make(map[string]int)
	err := eachLine(data, func(line int, text []byte) error {
		doc, err := lineDocument(text)
		if err != nil {
			return err
		}
		if err := checkName(&doc.Name, seen, line, func(j int) string { return fmt.Sprintf("line %d", j) }); err != nil {
			return err
		}
		if _, err := toolsearch.Count(doc); err != nil {
			return err
		}
		docs = append(docs, doc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%w: no tools", ErrMalformed)
	}
	return docs, nil
}

// lineDocument decodes one line of a JSON lines catalog: a tool's wire
// record (see kindOfLine) or a catalog line.
func lineDocument(text []byte) (toolsearch.Document, error) {
	switch kindOfLine(text) {
	case wireRecordLine:
		return wireLine(text)
	case listingLine:
		return toolsearch.Document{}, errors.New("an object with \"tools\" (a toolset's wire record or an MCP tools/list result) " +
			"must be the whole file; JSON lines hold one tool a line")
	}
	var t lineTool
	if err := decodeStrict(text, &t); err != nil {
		return toolsearch.Document{}, err
	}
	switch {
	case t.Name == nil:
		return toolsearch.Document{}, errors.New("missing \"name\"")
	case *t.Name == "":
		return toolsearch.Document{}, errors.New("empty \"name\"")
	}
	return toolsearch.Document{Name: *t.Name, Title: t.Title, Description: t.Description, Parameters: t.Parameters}, nil
}

// checkName checks that a tool has a non-empty name that no earlier tool has;
// at says where an earlier tool was.
func checkName(name *string, seen map[string]int, here int, at func(int) string) error {
	switch {
	case name == nil:
		return errors.New("missing \"name\"")
	case *name == "":
		return errors.New("empty \"name\"")
	}
	if prev, ok := seen[*name]; ok {
		return fmt.Errorf("name %q repeats the tool at %s", *name, at(prev))
	}
	seen[*name] = here
	return nil
}

// eachLine calls fn with every non-blank line of data and its 1-based
// number, stopping at the first error, which it returns with the line number.
func eachLine(data []byte, fn func(line int, text []byte) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if err := fn(line, text); err != nil {
			return fmt.Errorf("%w: line %d: %w", ErrMalformed, line, err)
		}
	}
	return sc.Err()
}

// decodeStrict decodes exactly one JSON value into v through the module's
// strict decoder: unknown fields, keys differing from a field's name only in
// case, duplicate keys and trailing data are all refused.
func decodeStrict(data []byte, v any) error {
	return strictjson.Decode(data, v)
}
