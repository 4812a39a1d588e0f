// Package benchcatalog makes the large catalogs that search is measured on
// from a small one (the dev set's tools): the tools repeated under other
// names, the copies also told apart by a word of their own, and copies
// whose descriptions and parameters are drawn from other tools, and the
// tools pooled from 28 servers under their prefixes, renamed and reworded
// as servers name the same tools (camelCase, reordered words, synonyms, cut
// descriptions). The search
// benchmarks of runtime/toolsearch and the catalog files of the CLI
// evaluation (written by writecatalog) are made by the same functions.
package benchcatalog
