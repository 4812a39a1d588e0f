package toolsearch

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// countsByTerm returns the postings of every term of ix by the term, and
// the scales of its tools.
func countsByTerm(ix *Index) (map[string][]ToolTerm, []toolScales) {
	byTerm := make(map[string][]ToolTerm, len(ix.postings))
	for t, p := range ix.postings {
		byTerm[ix.terms.keys[t]] = p
	}
	return byTerm, ix.scales
}

// checkDocumentsCountAlike checks that NewIndexFromDocuments, which counts a
// description or schema read before from its remembered counts, counts docs
// exactly as counting each document on its own does.
func checkDocumentsCountAlike(t *testing.T, docs []Document) {
	t.Helper()
	counts := make([]Counts, len(docs))
	for i, d := range docs {
		c, err := Count(d)
		if err != nil {
			t.Fatal(err)
		}
		counts[i] = c
	}
	fromCounts, err := NewIndexFromCounts(counts)
	if err != nil {
		t.Fatal(err)
	}
	fromDocs, err := NewIndexFromDocuments(docs)
	if err != nil {
		t.Fatal(err)
	}
	gotTerms, gotScales := countsByTerm(fromDocs)
	wantTerms, wantScales := countsByTerm(fromCounts)
	if len(gotTerms) != len(wantTerms) {
		t.Errorf("%d terms from documents, %d from counts", len(gotTerms), len(wantTerms))
	}
	for term, want := range wantTerms {
		if got := gotTerms[term]; !slices.Equal(got, want) {
			t.Errorf("term %q: postings %v from documents, %v from counts", term, got, want)
		}
	}
	if !slices.Equal(gotScales, wantScales) {
		t.Errorf("scales %v from documents, %v from counts", gotScales, wantScales)
	}
}

// TestRepeatedTextsCountAlike checks that descriptions and parameter
// schemas repeated from tool to tool, as a pooled catalog repeats them,
// count in every tool as they do read once: alone, beside a title or a name
// with the same words, and when one tool's description is another's schema
// text.
func TestRepeatedTextsCountAlike(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"The city, as in the weather report."}}}`)
	other := json.RawMessage(`{"type":"object","properties":{"days":{"type":"integer","description":"Days of forecast 2"}}}`)
	asText := string(schema)
	checkDocumentsCountAlike(t, []Document{
		{Name: "weather", Description: "Weather report for a city.", Parameters: schema},
		{Name: "github.weather", Description: "Weather report for a city.", Parameters: schema},
		{Name: "forecast", Title: "Weather report", Description: "Weather report for a city.", Parameters: other},
		{Name: "city_weather_report", Description: "Weather report for a city.", Parameters: schema, SearchTerms: []string{"city"}},
		{Name: "schema_as_description", Description: asText, Parameters: other},
		{Name: "schema_as_both", Description: asText, Parameters: schema},
		{Name: "empty", Parameters: other},
		{Name: "empty2"},
		{Name: "weather2", Description: "Weather report for a city.", Parameters: other},
	})
}

// TestRepeatedBadSchema checks that a malformed schema fails at the first
// tool that has it, and again when only a later tool has it: a schema that
// failed is not remembered.
func TestRepeatedBadSchema(t *testing.T) {
	bad := json.RawMessage(`{"type":"object","properties":`)
	for _, c := range []struct {
		name string
		docs []Document
		want string
	}{
		{"first", []Document{{Name: "a", Parameters: bad}, {Name: "b", Parameters: bad}}, `tool 0: invalid tool document: tool "a": parameters`},
		{"later", []Document{{Name: "a"}, {Name: "b", Parameters: bad}}, `tool 1: invalid tool document: tool "b": parameters`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewIndexFromDocuments(c.docs)
			if !errors.Is(err, ErrInvalidDocument) || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
				t.Errorf("NewIndexFromDocuments error = %v, want one starting %q", err, c.want)
			}
		})
	}
}

// FuzzRepeatedTextsCountAlike is TestRepeatedTextsCountAlike over any
// description and schema, each repeated and swapped between tools.
func FuzzRepeatedTextsCountAlike(f *testing.F) {
	f.Add("Create an order.", []byte(`{"type":"object","properties":{"id":{"description":"Order id","enum":["a"]}}}`))
	f.Add("", []byte(`true`))
	f.Add(`{"properties":{"a":{}}}`, []byte(`{"properties":{"a":{}}}`))
	f.Fuzz(func(t *testing.T, description string, params []byte) {
		if _, err := Count(Document{Name: "tool", Parameters: params}); err != nil {
			return
		}
		docs := []Document{
			{Name: "a", Description: description, Parameters: params},
			{Name: "b", Description: description, Parameters: params},
			{Name: "c", Description: string(params)},
			{Name: "d", Description: description},
			{Name: "e", Title: description, Parameters: params},
		}
		if _, err := Count(Document{Name: "tool", Parameters: json.RawMessage(description)}); err == nil {
			docs = append(docs, Document{Name: "f", Description: string(params), Parameters: json.RawMessage(description)})
		}
		checkDocumentsCountAlike(t, docs)
	})
}
