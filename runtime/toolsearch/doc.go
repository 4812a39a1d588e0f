// Package toolsearch ranks tools for a model's keywords.
//
// It has one analyzer, [Terms], used everywhere a tool or a query becomes
// words: code generation precomputes each tool's word counts with it
// ([Count]), and at run time queries and registry catalogs go through it, so
// counts made at generation time always agree with queries.
//
// An index is built in one of three ways, all ending in the same [Index]:
//
//   - [NewIndex] from a [CatalogCounts], the counts of a whole catalog
//     arranged by term ([NewCatalogCounts] merges per-tool counts into it).
//     It does no tokenizing and hashes only names and distinct terms; this
//     is the form generated code embeds for a catalog it knows whole.
//   - [NewIndexFromCounts] from per-tool [Counts], the form generated code
//     embeds per toolset; no tokenizing, one hash per term of every tool.
//   - [NewIndexFromDocuments] from tool [Document] values at run time, for
//     registry catalogs: it analyzes names, titles, descriptions, parameter
//     JSON Schemas and extra search terms.
//
// A word that case changes split ("JavaScript", "GitHub", "PostgreSQL",
// "OAuth", "objectType") is a term as its parts and as its whole spelling
// lower-cased, in every field but the name (found whole up to case and
// separators), so the word a user types in lower case finds it.
//
// Search scores tools with BM25F over seven fields (name, title, description,
// parameter names, parameter descriptions, extra search terms, and the
// namespace of a dotted name, what comes before its last dot): a name match
// outweighs a description match and rare words outweigh common ones, and a
// namespace word ("math" in "math.factorial") weighs half a name word. A term
// with a digit in it is most often a value the request carries (an amount, a
// date, an id) and its scores count half; in a tool it is an index or a
// version ("Hotels_4_SearchHotel") and does not count in the length of its
// field. Each of a tool's name words outside its namespace that the query
// holds also adds its share of the name, so a query that spells out a whole name ("current
// weather" for get_current_weather) ranks that tool ahead of one whose longer
// name it holds in part. A few verbs that tools use for the same action are
// synonyms ("find", "search", "locate"; "get", "retrieve", "fetch"; ...): a
// term scores a quarter of its synonym's score in a tool that has the synonym
// but not the term. A month, a day of the week or of the month ("5th") and a
// year (1900 to 2099) stand for "date" alike (but not "date" for them), so a
// request for "Monday" or "March 5th 2023" reaches the tools that take a
// date. A word of four letters or more that no tool has stands
// for the words of the catalog it begins, as an abbreviation or a stem of
// theirs ("fahr" for "fahrenheit", "invented" for "invention"), each at a
// quarter weight, when it begins at most four. A tool's score is thus the
// sum, over the query's terms in query order and then the terms its unknown
// words stand for, of the term's weight (1 for a term of the query, a
// quarter for a term an unknown word stands for) times the term's score in
// that tool alone: its BM25F score plus its name share, both halved for a
// term with a digit, or a quarter of its best synonym's.
//
// Tools alike but for the numbers in their names (the same terms with the
// same counts in every field, names and namespaces included, and fields of
// the same lengths, value terms left out, as a catalog repeated under
// "copy1.", "copy2." holds) form a group that a search scores once per term,
// so that their copies cost a search little; a number of some members'
// names only ("copy7") is scored for each of them. Tools whose names differ
// in a word, as the servers of a pool do ("github.get_issue",
// "gitlab.fetch_issue"), have groups of their own, numbered together.
// Grouping changes no score: every tool scores exactly what scoring it alone
// gives.
//
// The common-word rule: a word in more than a fifth of a catalog's tools (and
// in five or more) adds to the scores of the tools that the query's rarer
// words find, and finds tools itself only when those words find fewer than
// the limit, ranked after theirs. In a catalog pooled from servers (the
// namespaces of the tools' names), commonness is judged by server, so that
// the pool ranks a server's tools as the server alone would: a word that
// one server uses in most of its tools ("project" of a project tracker that
// dominates the pool) is common only if it is in a fifth of the other
// servers' tools too, and a word of many servers (more than 3 in 10, and a
// tenth of the tools) is common even under a fifth of the pool, so "list
// projects" reaches get_projects. So "weather" still finds nine tools that
// all say "Weather forecast.", in "weather service" the common "service"
// ranks no tool of its own before the one that "weather" finds, and a
// request that shares a word with five tools or more gets up to the limit.
//
// A query word that no tool has may be mistyped or joined: a word of five
// letters or more stands for the words of the catalog one edit away (two
// for nine letters or more, a swap of two letters being one edit), and a
// word that is two or three words of the catalog written together, which
// a tool has together, stands for them ("closeticket" for
// tickets_close_ticket). A function word of another language
// that is an English word too ("comment", "os", "per") is a frame word
// only in a request in that language.
//
// A query word that names a server of a pooled catalog (the whole namespace
// of its tools' names, "wikipedia" of wikipedia.get_article or "hubspot" of
// hubspot.hubspot-search-objects, that no other tool has) weighs three times
// as much as another, so "based on Wikipedia" raises the wikipedia server's
// tools above other servers' tools that match the request's other words. A
// name of several words ("google maps", "google_maps", "GoogleMaps" of
// google_maps.maps_geocode) names its server when the query has its words in
// order, each weighing three times as much divided by their number (at least
// once). In a catalog without namespaces whose tools are mostly named
// SERVER_TOOL (wikipedia_search, google_maps_geocode: the portable names of
// namespaced tools), the first words of the names (up to three, not a verb of
// the synonym groups) name their tools' server alike.
//
// A query that contains a tool's exact name or model-facing name returns that
// tool first, and so does a query that is a tool's name up to case,
// separators and camelCase ("judge0_extra_ce_get_languages" or
// "Judge0 Extra CE Get Languages" for Judge0_Extra_CE_Get_Languages,
// "getCurrentWeather" for get_current_weather): the whole query exactly
// first, then spelled alike up to case and _ - and space, then folded, then
// a word of the query that is a name. [Index.Lookup] returns exactly the
// named tools.
//
// Words that say nothing of the tool a request wants (English request words
// such as "please", "help me", "I want to know"; the articles, prepositions,
// pronouns and auxiliaries of Spanish, French, German, Portuguese and
// Italian; the particles of Japanese, Chinese and Korean) are frame words:
// a query's frame words find no tool and add to no score, and a query of
// them only finds nothing but the tools it names ([Searchable]).
//
// Hybrid retrieval is an option: a [HybridIndex] fuses an Index's ranking
// with the cosine similarity of an [Embedder]'s vectors by reciprocal rank
// fusion, exact names still first, and keeps tool vectors in an
// [EmbeddingCache] by schema fingerprint so that a catalog is embedded once
// (runtime/toolsearch/openaiembed embeds with the OpenAI API). The cache
// embeds in batches with progress and bounded per-batch retries, and a
// [VectorStore] ([DirVectorStore]) keeps vectors across processes. The
// embedder's share of the fusion follows its measured agreement with the
// lexical ranking on the catalog ([FusionWeight]): a weak embedder gets
// none, and hybrid ranks as lexical does. An Index searched on its own
// ranks exactly as it does without any embedder.
//
// Results are deterministic: equal scores keep registration order. An Index
// is immutable once built and safe for concurrent use. Building scores
// nothing: the first search groups the tools alike, the first search of a
// term scores the tools it or its synonyms occur in, once, and keeps the
// scores, and the first search with a word that no tool has sorts the
// catalog's terms. Beyond that, [Index.AppendSearch] allocates nothing when its
// destination has room and [Index.Search] allocates only its result slice.
package toolsearch
