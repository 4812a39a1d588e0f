package toolsearch

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMultilingualRecall measures search on testdata/multilingual: tool
// descriptions and requests in Japanese, Chinese, Korean, German and French,
// one catalog. Each language must keep the recall it has; README lists the
// figures.
func TestMultilingualRecall(t *testing.T) {
	var docs []Document
	devLines(t, "testdata/multilingual/tools.jsonl", func(line []byte) error {
		var d struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		docs = append(docs, Document{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
		return nil
	})
	byLanguage := make(map[string]*devMetrics)
	var all devMetrics
	ix := mustIndex(t, docs)
	devLines(t, "testdata/multilingual/queries.jsonl", func(line []byte) error {
		var q devQuery
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		lang, _, _ := strings.Cut(q.ID, "-")
		if byLanguage[lang] == nil {
			byLanguage[lang] = new(devMetrics)
		}
		results := ix.Search(q.Query, 5)
		byLanguage[lang].add(results, q.Gold)
		all.add(results, q.Gold)
		if len(results) == 0 || results[0].Name != q.Gold[0] {
			t.Logf("%s %q: %q", q.ID, q.Query, names(results))
		}
		return nil
	})
	// The least recall@5 each language must keep.
	floors := map[string]float64{"ja": 0.9, "zh": 0.9, "ko": 0.9, "de": 0.9, "fr": 0.9}
	for lang, floor := range floors {
		m := byLanguage[lang]
		if m == nil {
			t.Fatalf("no %s requests", lang)
		}
		r1, r5, _, _ := m.mean()
		t.Logf("%s (%d requests): recall@1 %.3f recall@5 %.3f", lang, m.n, r1, r5)
		if r5 < floor {
			t.Errorf("%s: recall@5 %.3f, want at least %.2f", lang, r5, floor)
		}
	}
	r1, r5, _, _ := all.mean()
	t.Logf("all (%d requests): recall@1 %.3f recall@5 %.3f", all.n, r1, r5)
}

// TestCountUnspacedScripts checks that the counts code generation embeds
// hold the character pairs that queries in unspaced scripts search for, so
// that a generated index finds what a run-time one does.
func TestCountUnspacedScripts(t *testing.T) {
	doc := Document{Name: "weather", Description: "指定した都市の天気予報を取得します"}
	c, err := Count(doc)
	if err != nil {
		t.Fatal(err)
	}
	counted := make(map[string]bool)
	for _, tc := range c.Terms {
		counted[tc.Term] = tc.Counts.Description == 1
	}
	for _, term := range []string{"天気", "気予", "予報", "都市", "取得"} {
		if !counted[term] {
			t.Errorf("Count(%q) lacks %q once in the description: %v", doc.Description, term, c.Terms)
		}
	}
	ix, err := NewIndexFromCounts([]Counts{c, {Name: "other", Terms: []TermCounts{{Term: "天国", Counts: FieldCounts{Description: 1}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"天気", "天気予報", "都市の天気", "指定した都市の天気予報を取得します"} {
		if got := names(ix.Search(q, 5)); len(got) != 1 || got[0] != "weather" {
			t.Errorf("Search(%q) = %q, want [weather]", q, got)
		}
	}
}
