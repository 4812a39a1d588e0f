package emulation

// Conversation catalog mode. The rendered request declares the same tools
// on every step: the application's tools, the discovery tool and the
// dispatcher (discovery.Dispatcher). What discovery loads reaches the model
// as catalog messages, user messages appended to the conversation: the
// complete catalog the first time, then what was added, changed or removed.
// Each catalog message is recorded in the Meta of the assistant message
// that answered the request it was appended to (MetaKey), so a stored
// history renders it again at the same place, with the same bytes, however
// the permitted catalog changed since.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// MetaKey is the key of a catalog record in an assistant message's Meta.
// Every adapter reads it, so a history moves between emulating adapters
// with its catalog messages.
const MetaKey = "catalog"

// RuleCatalogRecord is the rule a catalog record that cannot be read
// breaks.
const RuleCatalogRecord model.Rule = "catalog_record"

// record is a catalog message as the history keeps it: its text, verbatim,
// and the change it made to the catalog the model knows.
type record struct {
	// Text is the message the model read.
	Text string `json:"text"`
	// Tools are the tools it added or changed, each with the fingerprint
	// of its definition.
	Tools []entry `json:"tools,omitempty"`
	// Removed are the tools it removed.
	Removed []string `json:"removed,omitempty"`
}

type entry struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
}

// Conversation is one request rendered in conversation catalog mode: what
// the adapter renders (Request), the catalog it reflects, and the record
// of the catalog message it appended, if any, for the response.
type Conversation struct {
	// Request is the request to render: the same history with dispatcher
	// calls in place of calls of discovered tools and catalog messages in
	// place, and the fixed declarations.
	Request *model.Request
	// catalog holds the names of the discovered tools req declared and of
	// every tool a catalog message of the history showed: a discovery
	// result lists them, so that a tool withheld later leaves the earlier
	// results as they were (its removal is a catalog message of its own).
	catalog map[string]bool
	pending json.RawMessage
}

// Rewrite renders req, a request that discovery.Check accepts, in
// conversation catalog mode. req is not modified. A catalog record in the
// history that cannot be read is a *model.ValidationError.
func Rewrite(req *model.Request) (*Conversation, error) {
	out := *req
	c := &Conversation{Request: &out, catalog: map[string]bool{}}
	app := map[string]bool{}
	var current []model.ToolDefinition
	out.Tools = make([]model.ToolDefinition, 0, len(req.Tools)+1)
	for _, t := range req.Tools {
		switch t.Kind {
		case model.ToolDiscovered:
			current = append(current, t)
			c.catalog[t.Name] = true
			continue
		case model.ToolApplication:
			app[t.Name] = true
		case model.ToolDiscovery:
			t = discovery.CatalogTool(req.Discovery.Description)
		}
		out.Tools = append(out.Tools, t)
	}
	if req.Discovery.Enabled || len(current) > 0 {
		out.Tools = append(out.Tools, discovery.Dispatcher())
	}
	out.Discovery.Deferred = nil

	known := &shown{fp: map[string]string{}}
	out.Messages = make([]model.Message, 0, len(req.Messages)+1)
	for i, m := range req.Messages {
		if m.Role != model.RoleAssistant {
			out.Messages = append(out.Messages, m)
			continue
		}
		if raw, ok := m.Meta[MetaKey]; ok {
			var rec record
			if err := json.Unmarshal(raw, &rec); err != nil || rec.Text == "" {
				return nil, &model.ValidationError{Message: i, Part: -1, Rule: RuleCatalogRecord,
					Detail: fmt.Sprintf("the catalog record is not a catalog message: %s", raw)}
			}
			out.Messages = append(out.Messages, model.UserMessage(rec.Text))
			known.apply(rec)
			for _, e := range rec.Tools {
				c.catalog[e.Name] = true
			}
		}
		out.Messages = append(out.Messages, dispatched(m, app))
	}
	// A structured-output request declares no discovered tools for that
	// request only: the catalog the model knows stays as it was.
	if req.ResponseFormat != nil {
		return c, nil
	}
	if rec, ok := known.change(current); ok {
		out.Messages = append(out.Messages, model.UserMessage(rec.Text))
		raw, err := json.Marshal(rec)
		if err != nil {
			return nil, fmt.Errorf("emulation: encode catalog record: %w", err)
		}
		c.pending = raw
	}
	return c, nil
}

// dispatched returns m with each call of a tool that is neither the
// application's, the discovery tool nor the dispatcher (a dispatcher call
// that could not be read, kept as the model wrote it) rendered as a
// dispatcher call.
func dispatched(m model.Message, app map[string]bool) model.Message {
	var parts []model.Part
	for j, p := range m.Parts {
		if p.Kind != model.PartToolCall || app[p.ToolCall.Name] || p.ToolCall.Name == discovery.ToolName || p.ToolCall.Name == discovery.DispatcherName {
			continue
		}
		if parts == nil {
			parts = slices.Clone(m.Parts)
		}
		call := model.ToolCall{ID: p.ToolCall.ID, Name: discovery.DispatcherName,
			Arguments: json.RawMessage(discovery.DispatchArguments(*p.ToolCall))}
		parts[j] = model.ToolCallPart(call)
	}
	if parts != nil {
		m.Parts = parts
	}
	return m
}

// ResultText is the package's ResultText for this request: a discovered
// tool is listed, under its own name, to be called through the dispatcher,
// when the request declares it or a catalog message of the history showed
// it.
func (c *Conversation) ResultText(r model.DiscoveryResult) string {
	return resultText(r, func(n string) (string, bool) { return n, c.catalog[n] }, catalogPhrases)
}

// Finish completes the response to the rendered request: dispatcher calls
// become calls of the tools they name (a dispatcher call that cannot be
// read stays as it came, and is answered with an error result as a call of
// an undeclared tool), and the record of the catalog message appended to
// the request goes into the message's Meta under MetaKey.
func (c *Conversation) Finish(resp *model.Response) {
	if resp == nil {
		return
	}
	for j, p := range resp.Message.Parts {
		if p.Kind == model.PartToolCall {
			resp.Message.Parts[j].ToolCall = ptr(c.Call(*p.ToolCall))
		}
	}
	if c.pending != nil {
		meta := maps.Clone(resp.Message.Meta)
		if meta == nil {
			meta = map[string]json.RawMessage{}
		}
		meta[MetaKey] = c.pending
		resp.Message.Meta = meta
	}
}

// Call returns the call of the tool a dispatcher call names, and any other
// call unchanged.
func (c *Conversation) Call(call model.ToolCall) model.ToolCall {
	if call.Name != discovery.DispatcherName {
		return call
	}
	inner, err := discovery.ParseDispatch(call)
	if err != nil {
		return call
	}
	return inner
}

func ptr[T any](v T) *T { return &v }

// shown is the catalog the model has read so far: names in the order they
// were first shown, with the fingerprint of the definition shown.
type shown struct {
	names []string
	fp    map[string]string
}

func (s *shown) apply(rec record) {
	for _, e := range rec.Tools {
		if _, ok := s.fp[e.Name]; !ok {
			s.names = append(s.names, e.Name)
		}
		s.fp[e.Name] = e.Fingerprint
	}
	for _, n := range rec.Removed {
		delete(s.fp, n)
		s.names = slices.DeleteFunc(s.names, func(x string) bool { return x == n })
	}
}

// change returns the catalog message that brings the model from s to
// current, if they differ: the complete catalog when the model has read
// none, otherwise what was added, changed or removed.
func (s *shown) change(current []model.ToolDefinition) (record, bool) {
	var rec record
	var added, changed []model.ToolDefinition
	now := make(map[string]bool, len(current))
	for _, t := range current {
		now[t.Name] = true
		fp := fingerprint(t)
		old, ok := s.fp[t.Name]
		switch {
		case !ok:
			added = append(added, t)
		case old != fp:
			changed = append(changed, t)
		default:
			continue
		}
		rec.Tools = append(rec.Tools, entry{Name: t.Name, Fingerprint: fp})
	}
	for _, n := range s.names {
		if !now[n] {
			rec.Removed = append(rec.Removed, n)
		}
	}
	if len(rec.Tools) == 0 && len(rec.Removed) == 0 {
		return rec, false
	}
	var b strings.Builder
	if len(s.names) == 0 {
		fmt.Fprintf(&b, "Tool catalog: %s. Call them with %s, giving the tool's name and its arguments.", count(len(added)), discovery.DispatcherName)
		writeTools(&b, added)
	} else {
		b.WriteString("Tool catalog update.")
		if len(added) > 0 {
			fmt.Fprintf(&b, "\nAdded %s:", count(len(added)))
			writeTools(&b, added)
		}
		if len(changed) > 0 {
			fmt.Fprintf(&b, "\nChanged %s (use these definitions from now on):", count(len(changed)))
			writeTools(&b, changed)
		}
		if len(rec.Removed) > 0 {
			fmt.Fprintf(&b, "\nRemoved %s (no longer callable): %s", count(len(rec.Removed)), strings.Join(rec.Removed, ", "))
		}
	}
	rec.Text = b.String()
	s.apply(rec)
	return rec, true
}

func count(n int) string {
	if n == 1 {
		return "1 tool"
	}
	return strconv.Itoa(n) + " tools"
}

// catalogTool is one tool as a catalog message lists it.
type catalogTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// writeTools lists tools one JSON object a line.
func writeTools(b *strings.Builder, ts []model.ToolDefinition) {
	for _, t := range ts {
		line, err := json.Marshal(catalogTool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		if err != nil {
			// Parameters passed discovery.Check: valid JSON.
			panic(fmt.Sprintf("emulation: encode catalog tool %q: %v", t.Name, err))
		}
		b.WriteString("\n")
		b.Write(line)
	}
}

// fingerprint identifies what the model reads of a tool's definition.
func fingerprint(t model.ToolDefinition) string {
	b, err := json.Marshal(catalogTool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	if err != nil {
		panic(fmt.Sprintf("emulation: encode catalog tool %q: %v", t.Name, err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
