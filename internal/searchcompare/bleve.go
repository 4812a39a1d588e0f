package main

import (
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// bleveIndex is an in-memory bleve index of the tools' names and
// descriptions.
type bleveIndex struct {
	index bleve.Index
	names []string
}

func newBleve(docs []toolsearch.Document) (*bleveIndex, error) {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	doc := mapping.NewDocumentMapping()
	doc.AddFieldMappingsAt("name", text)
	doc.AddFieldMappingsAt("description", text)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	index, err := bleve.NewMemOnly(m)
	if err != nil {
		return nil, err
	}
	batch := index.NewBatch()
	for i, d := range docs {
		if err := batch.Index(strconv.Itoa(i), map[string]string{"name": d.Name, "description": d.Description}); err != nil {
			return nil, err
		}
	}
	if err := index.Batch(batch); err != nil {
		return nil, err
	}
	names := make([]string, len(docs))
	for i, d := range docs {
		names[i] = d.Name
	}
	return &bleveIndex{index: index, names: names}, nil
}

func (x *bleveIndex) rank(query string, k int) ([]string, error) {
	name := bleve.NewMatchQuery(query)
	name.SetField("name")
	name.SetBoost(2)
	desc := bleve.NewMatchQuery(query)
	desc.SetField("description")
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(name, desc), k, 0, false)
	res, err := x.index.Search(req)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, h := range res.Hits {
		i, _ := strconv.Atoi(h.ID)
		names = append(names, x.names[i])
	}
	return names, nil
}

func (x *bleveIndex) Close() error { return x.index.Close() }
