package toolsearch

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"
)

func FuzzTerms(f *testing.F) {
	for _, s := range []string{"", "HTTPServerStatus", "get_user-by.id/v2", "Ünïcode STRAẞE", "abc\xffdef", "calculations", "ies", "sses",
		"指定した都市の天気予報を取得します", "Go言語のAPI", "พยากรณ์อากาศ", "날씨를 조회", "天\u0301x", "ー", "ก\u0e4c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		terms := Terms(text)
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) {
				t.Fatalf("Terms(%q) has term %q", text, term)
			}
		}
		if again := Terms(text); !slices.Equal(terms, again) {
			t.Fatalf("Terms(%q) = %q, then %q", text, terms, again)
		}
	})
}

func FuzzSearch(f *testing.F) {
	ix := mustIndex(f, testCatalog())
	other := mustIndex(f, testCatalog())
	for _, q := range []string{"", "weather", "files.list now", "records_lookup.", "help", ".*", "convert currencies", "\x00"} {
		f.Add(q, 3)
	}
	f.Fuzz(func(t *testing.T, query string, limit int) {
		got := ix.Search(query, limit)
		want := limit
		if want <= 0 {
			want = DefaultLimit
		}
		if len(got) > want {
			t.Fatalf("Search(%q, %d) returned %d results", query, limit, len(got))
		}
		seen := make(map[string]bool)
		for i, r := range got {
			if seen[r.Name] {
				t.Fatalf("Search(%q) returned %s twice", query, r.Name)
			}
			seen[r.Name] = true
			if i > 0 && !ranksBefore(got[i-1], r) {
				t.Fatalf("Search(%q): %+v ranked before %+v", query, got[i-1], r)
			}
		}
		if again := ix.Search(query, limit); !slices.Equal(got, again) {
			t.Fatalf("Search(%q) = %v, then %v", query, got, again)
		}
		if o := other.Search(query, limit); !slices.Equal(got, o) {
			t.Fatalf("Search(%q) on two indexes = %v and %v", query, got, o)
		}
		if want := referenceSearch(ix, query, limit); !sameRanking(got, want) {
			t.Fatalf("Search(%q, %d) = %v, exhaustive scoring %v", query, limit, got, want)
		}
	})
}

// ranksBefore reports whether a may precede b in a ranking.
func ranksBefore(a, b Result) bool {
	if a.Exact != b.Exact {
		return a.Exact
	}
	return a.Score >= b.Score
}

func FuzzCount(f *testing.F) {
	f.Add("Create an order.", []byte(`{"type":"object","properties":{"id":{"description":"Order id","enum":["a"]}}}`))
	f.Add("", []byte(`true`))
	f.Add("x", []byte(`{"items":{"anyOf":[{"properties":{"a":{}}}]},"$defs":{"d":{"title":"T"}}}`))
	f.Add("x", []byte(`[1]`))
	f.Fuzz(func(t *testing.T, description string, params []byte) {
		doc := Document{Name: "tool", Description: description, Parameters: json.RawMessage(params)}
		c, err := Count(doc)
		if err != nil {
			return
		}
		for i, tc := range c.Terms {
			if i > 0 && c.Terms[i-1].Term >= tc.Term {
				t.Fatalf("terms not sorted and unique: %q then %q", c.Terms[i-1].Term, tc.Term)
			}
			if !tc.Counts.valid() {
				t.Fatalf("term %q has counts %+v", tc.Term, tc.Counts)
			}
		}
		if _, err := NewIndexFromCounts([]Counts{c}); err != nil {
			t.Fatalf("NewIndexFromCounts of Count's output: %v", err)
		}
	})
}

// FuzzTermsMatchReference checks the analyzer against the reference word
// splitter and stemmer.
func FuzzTermsMatchReference(f *testing.F) {
	for _, s := range []string{"", "HTTPServerStatus", "getHTTP2ServerΩmega", "ÀBC déF", "x\u0301Y", "ABCdef", "nationalization", "a\xffB",
		"指定した都市の天気予報を取得します", "Go言語のAPI", "พยากรณ์อากาศ", "날씨를 조회", "天\u0301x", "ー", "\u0e4cก", "天\xff気",
		"Adriel's", "don’t", "I'D'S", "'s", "é'll", "x''s", "天's", "\xff's", "rock'n'roll"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := Terms(text), referenceTerms(text); !slices.Equal(got, want) {
			t.Fatalf("Terms(%q) = %q, reference %q", text, got, want)
		}
	})
}

// FuzzCountMatchesReference checks Count against the reference count over
// encoding/json: both accept the same JSON, except that Count rejects
// duplicate keys (encoding/json keeps the last) and accepts numbers beyond
// float64, and what both accept counts the same.
func FuzzCountMatchesReference(f *testing.F) {
	f.Add("Create an order.", []byte(`{"type":"object","properties":{"id":{"description":"Order id","enum":["a"]}}}`))
	f.Add("", []byte(`true`))
	f.Add("x", []byte(`{"items":{"anyOf":[{"properties":{"a":{}}}]},"$defs":{"d":{"title":"T"}}}`))
	f.Add("x", []byte(`{"title":"a\u00e9\ud800b","maximum":1e400}`))
	f.Add("x", []byte(`{"a":1,"a":2}`))
	f.Add("x", []byte(" [1] "))
	f.Fuzz(func(t *testing.T, description string, params []byte) {
		doc := Document{Name: "tool", Description: description, Parameters: json.RawMessage(params)}
		got, err := Count(doc)
		valid := len(params) == 0 || json.Valid(params)
		switch {
		case !valid:
			if err == nil {
				t.Fatalf("Count accepted parameters %q", params)
			}
			return
		case hasDuplicateKeys(params):
			// encoding/json reads invalid UTF-8 in two keys as one key.
			if err == nil && utf8.Valid(params) {
				t.Fatalf("Count accepted duplicate keys in %q", params)
			}
			return
		case err != nil:
			var root any
			if json.Unmarshal(params, &root) == nil {
				switch root.(type) {
				case nil, bool, map[string]any:
					t.Fatalf("Count rejected parameters %q: %v", params, err)
				}
			}
			return
		}
		want, refErr := referenceCount(doc)
		if refErr != nil {
			return // a number beyond float64
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Count = %+v, reference %+v", got, want)
		}
	})
}
