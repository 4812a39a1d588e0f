// Package toolsearch ranks tools for a model's keywords.
//
// It has one analyzer, [Terms], used everywhere a tool or a query becomes
// words: code generation precomputes each tool's word counts with it
// ([Count]), and at run time queries and registry catalogs go through it, so
// counts made at generation time always agree with queries.
//
// An [Index] is built either from precomputed [Counts] ([NewIndex], which does
// no tokenizing, the form generated code embeds) or from tool documents at
// run time ([NewIndexFromDocuments], for registry catalogs). Search scores
// tools with BM25F over six fields (name, title, description, parameter
// names, parameter descriptions, extra search terms) in which a name match
// outweighs a description match and rare words outweigh common ones. A query
// that contains a tool's exact name returns that tool first, and
// [Index.Lookup] returns exactly the named tools.
//
// Results are deterministic: equal scores keep registration order. An Index
// is immutable once built and safe for concurrent use; a search allocates
// nothing beyond its result slice ([Index.AppendSearch] allocates nothing
// when given room).
package toolsearch
