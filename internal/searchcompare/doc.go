// Command searchcompare evaluates goa-discovery's tool search beside two
// general rankings on one catalog and query set, in one run: plain BM25
// (k1 1.2, b 0.75) over each tool's name and description, and bleve, a
// general full-text engine (English analyzer, the name boosted 2x, its
// default scoring). It prints recall@1, recall@5, MRR@5, hit@5 and the p50
// of a search for each. It is a module of its own so that bleve stays out
// of the main module.
//
//	cd internal/searchcompare && go run . -tools ../../testdata/mcpfleet/tools.jsonl -queries ../../testdata/mcpfleet/queries.jsonl
package main
