package discovery

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// recordsCatalog is a small catalog whose entries have catalog names.
func recordsCatalog(t testing.TB) *Catalog {
	t.Helper()
	tools := []struct{ id, desc string }{
		{"records.lookup", "Look up a customer record by id"},
		{"records.search", "Search customer records by keywords"},
		{"records.analyze", "Analyze a set of records and report trends"},
		{"mail.send", "Send an email message to a recipient"},
		{"mail.draft", "Draft an email message without sending it"},
		{"calendar.create_event", "Create a calendar event with attendees"},
		{"calendar.list_events", "List calendar events in a date range"},
	}
	entries := make([]Entry, len(tools))
	for i, tl := range tools {
		entries[i] = Entry{
			Name: tl.id,
			Snapshot: model.ToolSnapshot{
				Name:        PortableName(tl.id),
				Description: tl.desc,
				Parameters:  json.RawMessage("{\n  \"type\": \"object\"\n}"),
				Namespace:   strings.Split(tl.id, ".")[0],
			},
		}
	}
	c, err := NewCatalog(entries, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	return c
}

func resultNames(r model.DiscoveryResult) []string {
	out := make([]string, len(r.Tools))
	for i, s := range r.Tools {
		out[i] = s.Name
	}
	return out
}

func TestAnswer(t *testing.T) {
	c := recordsCatalog(t)
	cases := []struct {
		name  string
		call  model.DiscoveryCall
		limit int
		want  []string
		note  string
	}{
		{"exact names in order", model.DiscoveryCall{Names: []string{"mail_send", "records_lookup"}}, 0, []string{"mail_send", "records_lookup"}, ""},
		{"catalog name", model.DiscoveryCall{Names: []string{"records.analyze"}}, 0, []string{"records_analyze"}, ""},
		{"name twice", model.DiscoveryCall{Names: []string{"mail_send", "mail.send"}}, 0, []string{"mail_send"}, ""},
		{"names are never cut", model.DiscoveryCall{Names: []string{"mail_send", "mail_draft", "records_lookup"}}, 2, []string{"mail_send", "mail_draft", "records_lookup"}, ""},
		{"query", model.DiscoveryCall{Query: "send an email"}, 0, []string{"mail_send", "mail_draft"}, ""},
		{"query limited", model.DiscoveryCall{Query: "calendar events records email"}, 3, nil, ""},
		{"names first then query", model.DiscoveryCall{Names: []string{"records_lookup"}, Query: "calendar event"}, 2, []string{"records_lookup", "calendar_create_event"}, ""},
		{"query skips named tools", model.DiscoveryCall{Names: []string{"mail_draft"}, Query: "email"}, 0, []string{"mail_draft", "mail_send"}, ""},
		{"unknown names", model.DiscoveryCall{Names: []string{"nope", "gone"}}, 0, nil, `No available tool is named "nope", "gone".`},
		{"no match", model.DiscoveryCall{Query: "weather forecast"}, 0, nil, `No available tool matches the query "weather forecast".`},
		{"unknown name and no match", model.DiscoveryCall{Names: []string{"nope"}, Query: "weather"}, 0, nil, `No available tool is named "nope". No available tool matches the query "weather".`},
		{"nothing searchable", model.DiscoveryCall{Query: "please help me"}, 0, nil, `The query "please help me" names nothing searchable: its words only frame a request or join words (such as "please", "help me", "the", "de", "から"); say what the tool does.`},
		{"nothing searchable in Spanish", model.DiscoveryCall{Query: "¿de dónde es?"}, 0, nil, `The query "¿de dónde es?" names nothing searchable: its words only frame a request or join words (such as "please", "help me", "the", "de", "から"); say what the tool does.`},
		{"unknown name and nothing searchable", model.DiscoveryCall{Names: []string{"nope"}, Query: "I want to know more"}, 0, nil, `No available tool is named "nope". The query "I want to know more" names nothing searchable: its words only frame a request or join words (such as "please", "help me", "the", "de", "から"); say what the tool does.`},
		{"unknown name with a match", model.DiscoveryCall{Names: []string{"nope", "mail_send"}}, 0, []string{"mail_send"}, ""},
		{"hosted: the tools the provider loaded, not the query's", model.DiscoveryCall{Names: []string{"records_lookup"}, Query: "send an email", Hosted: true}, 0, []string{"records_lookup"}, ""},
		{"hosted: nothing loaded yet", model.DiscoveryCall{Query: "send an email", Hosted: true}, 0, nil, "The provider's search loaded no tool."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.call.ID = "d1"
			r, err := c.Answer(tc.call, tc.limit)
			if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if r.CallID != "d1" || r.Note != tc.note {
				t.Errorf("result = %+v, want call d1 and note %q", r, tc.note)
			}
			got := resultNames(r)
			switch {
			case tc.name == "query limited":
				if len(got) != 3 {
					t.Errorf("answered %v, want 3 tools", got)
				}
			case !slices.Equal(got, tc.want):
				t.Errorf("answered %v, want %v", got, tc.want)
			}
			if err := ValidateHistory([]model.Message{
				model.AssistantMessage(model.DiscoveryCallPart(tc.call)),
				model.DiscoveryMessage(r),
			}); err != nil {
				t.Errorf("the answer does not make a valid history: %v", err)
			}
		})
	}
}

func TestAnswerDefaultLimit(t *testing.T) {
	c := recordsCatalog(t)
	r, err := c.Answer(model.DiscoveryCall{ID: "d", Query: "records email calendar events customer message"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tools) != DefaultLimit {
		t.Errorf("answered %d tools, want %d", len(r.Tools), DefaultLimit)
	}
}

func TestAnswerStableBytes(t *testing.T) {
	c := recordsCatalog(t)
	call := model.DiscoveryCall{ID: "d", Names: []string{"mail_send"}, Query: "records"}
	first, err := c.Answer(call, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(first.Tools[0].Parameters); got != `{"type":"object"}` {
		t.Errorf("parameters = %s, want them compacted", got)
	}
	first.Tools[0].Parameters[0] = 'X' // a caller's change must not reach the catalog
	for range 3 {
		again, err := c.Answer(call, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("answer bytes changed:\n%s\n%s", got, want)
		}
	}
}

func TestAnswerInvalidCall(t *testing.T) {
	c := recordsCatalog(t)
	for _, call := range []model.DiscoveryCall{{Query: "x"}, {ID: "d"}} {
		_, err := c.Answer(call, 0)
		if !errors.Is(err, model.ErrInvalidRequest) {
			t.Errorf("Answer(%+v) = %v, want a validation error", call, err)
		}
	}
}

func TestCatalogWithPrebuiltIndex(t *testing.T) {
	// The index holds more tools than the run may use.
	docs := []toolsearch.Document{
		{Name: "mail.send", Alias: "mail_send", Description: "Send an email"},
		{Name: "mail.purge", Alias: "mail_purge", Description: "Delete every email"},
		{Name: "mail.draft", Alias: "mail_draft", Description: "Draft an email"},
	}
	// Tools outside the catalog that rank above the permitted ones, and
	// filler that keeps "email" a rare word.
	for i := range 6 {
		docs = append(docs, toolsearch.Document{Name: "secret.tool" + string(rune('a'+i)), Description: "email email email email"})
	}
	for i := range 40 {
		docs = append(docs, toolsearch.Document{Name: "filler.tool" + string(rune('a'+i)), Description: "weather forecast"})
	}
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		t.Fatal(err)
	}
	entries := []Entry{
		{Name: "mail.send", Snapshot: model.ToolSnapshot{Name: "mail_send", Description: "Send an email", Parameters: json.RawMessage(objectSchema)}},
		{Name: "mail.draft", Snapshot: model.ToolSnapshot{Name: "mail_draft", Description: "Draft an email", Parameters: json.RawMessage(objectSchema)}},
	}
	c, err := NewCatalog(entries, ix)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	for _, r := range ix.Search("email", DefaultLimit+1) {
		if c.Permits(PortableName(r.Name)) {
			t.Fatalf("the index ranks %s among its first results; the test needs a wider search", r.Name)
		}
	}
	r, err := c.Answer(model.DiscoveryCall{ID: "d", Names: []string{"mail_purge"}, Query: "email"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultNames(r); !slices.Equal(got, []string{"mail_send", "mail_draft"}) {
		t.Errorf("answered %v, want only the permitted tools", got)
	}
	if c.Permits("mail_purge") || !c.Permits("mail_send") || c.Permits("mail.send") {
		t.Errorf("Permits is wrong")
	}

	missing := append(entries, Entry{Snapshot: snap("other")})
	if _, err := NewCatalog(missing, ix); !errors.Is(err, toolsearch.ErrUnknownTool) {
		t.Errorf("NewCatalog with an entry missing from the index = %v", err)
	}
}

func TestNewCatalogErrors(t *testing.T) {
	cases := []struct {
		name    string
		entries []Entry
		want    error
	}{
		{"snapshot name", []Entry{{Snapshot: snap("a.b")}}, model.ErrInvalidRequest},
		{"reserved", []Entry{{Snapshot: snap(ToolName)}}, model.ErrInvalidRequest},
		{"duplicate snapshot", []Entry{{Snapshot: snap("a")}, {Snapshot: snap("a")}}, ErrNameCollision},
		{"catalog name is another snapshot", []Entry{{Snapshot: snap("a")}, {Name: "a", Snapshot: snap("b")}}, ErrNameCollision},
	}
	for _, tc := range cases {
		if _, err := NewCatalog(tc.entries, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: NewCatalog = %v, want %v", tc.name, err, tc.want)
		}
	}
	c := testCatalog(t, "a")
	if s, ok := c.Snapshot("a"); !ok || s.Name != "a" || c.Len() != 1 {
		t.Errorf("Snapshot = %+v, %v", s, ok)
	}
	if _, ok := c.Snapshot("b"); ok {
		t.Errorf("Snapshot found an unknown tool")
	}
}

func TestEmptyCatalog(t *testing.T) {
	c, err := NewCatalog(nil, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	r, err := c.Answer(model.DiscoveryCall{ID: "d", Names: []string{"x"}, Query: "anything"}, 0)
	if err != nil || len(r.Tools) != 0 || r.Note == "" {
		t.Errorf("Answer = %+v, %v; want a note", r, err)
	}
	if c.Permits("x") || len(c.Deferred()) != 0 {
		t.Errorf("an empty catalog permits or defers tools")
	}
	var none *Catalog
	if none.Permits("x") {
		t.Errorf("a nil catalog permits a tool")
	}
}
