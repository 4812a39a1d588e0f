package benchcatalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

func small() []toolsearch.Document {
	return []toolsearch.Document{
		{Name: "get_weather", Description: "Current weather for a city.", Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)},
		{Name: "convert_currency", Description: "Convert an amount between currencies.", Parameters: []byte(`{"type":"object","properties":{"amount":{"type":"number"}}}`)},
		{Name: "create_issue", Description: "Open an issue.", Alias: "issue"},
	}
}

func TestCatalogs(t *testing.T) {
	for _, c := range []struct {
		name string
		make func([]toolsearch.Document, int) []toolsearch.Document
		// desc says what the description of copy c of tool i must be.
		desc func(docs []toolsearch.Document, i, c int, got string) bool
	}{
		{"repeated", Repeated, func(docs []toolsearch.Document, i, c int, got string) bool {
			return got == docs[i].Description
		}},
		{"distinct", Distinct, func(docs []toolsearch.Document, i, c int, got string) bool {
			return got == docs[i].Description+fmt.Sprintf(" copy%d", c)
		}},
		{"shuffled", Shuffled, func(docs []toolsearch.Document, i, c int, got string) bool {
			return strings.HasSuffix(got, fmt.Sprintf(" copy%d", c))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			docs := small()
			out := c.make(docs, 10)
			if len(out) != 10 {
				t.Fatalf("%d tools, want 10", len(out))
			}
			for k, d := range out {
				i, copyNo := k%len(docs), k/len(docs)
				if copyNo == 0 {
					if d.Name != docs[i].Name || d.Description != docs[i].Description || d.Alias != docs[i].Alias {
						t.Errorf("tool %d = %+v, want the original %+v", k, d, docs[i])
					}
					continue
				}
				if want := fmt.Sprintf("copy%d.%s", copyNo, docs[i].Name); d.Name != want || d.Alias != "" {
					t.Errorf("tool %d named %q (alias %q), want %q and no alias", k, d.Name, d.Alias, want)
				}
				if !c.desc(docs, i, copyNo, d.Description) {
					t.Errorf("tool %d described %q", k, d.Description)
				}
			}
			if _, err := toolsearch.NewIndexFromDocuments(out); err != nil {
				t.Errorf("index: %v", err)
			}
			again := c.make(docs, 10)
			if fmt.Sprint(again) != fmt.Sprint(out) {
				t.Error("a second catalog differs from the first")
			}
		})
	}
}

// TestShuffledMixes checks that shuffled copies take descriptions and
// parameters from tools other than the one they are named after.
func TestShuffledMixes(t *testing.T) {
	docs := small()
	out := Shuffled(docs, 300)
	mixed := 0
	for k := len(docs); k < len(out); k++ {
		if !strings.HasPrefix(out[k].Description, docs[k%len(docs)].Description) {
			mixed++
		}
	}
	if mixed == 0 {
		t.Error("no copy has another tool's description")
	}
}
