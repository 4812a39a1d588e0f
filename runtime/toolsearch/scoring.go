package toolsearch

import "math"

// The BM25F parameters. A term's frequencies in a tool's fields are each
// normalized by the field's length relative to its average, weighted by the
// field, summed, and saturated once with k1; the inverse document frequency
// makes rare terms count more than common ones. Name words weigh most, so a
// name match outranks a description match; the words of a name's namespace
// weigh half as much as the others, as a namespace ("math", "euro_history")
// names a family of tools rather than what the tool does.
const (
	k1 = 1.2
	// commonShare: a term in more than this share of the tools (and in at
	// least minCommonTools of them) is common: it finds tools only when the
	// query's rarer terms find none. A fifth keeps verbs like "get" or "list"
	// from adding tools to a query that names what it wants.
	commonShare    = 0.2
	minCommonTools = 5
)

// fieldWeight and fieldB are the BM25F weight and length normalization of
// each field, indexed by Field.
var (
	fieldWeight = [numFields]float64{
		FieldName:             3,
		FieldTitle:            2,
		FieldDescription:      1,
		FieldParamName:        1,
		FieldParamDescription: 1,
		FieldExtra:            1.5,
		FieldNamespace:        1.5,
	}
	fieldB = [numFields]float64{
		FieldName:             0.3,
		FieldTitle:            0.5,
		FieldDescription:      0.75,
		FieldParamName:        0.75,
		FieldParamDescription: 0.75,
		FieldExtra:            0.5,
		FieldNamespace:        0.3,
	}
)

// idf is the inverse document frequency of a term in df of n tools; it is
// positive for every df <= n.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// valueTermWeight is the weight of a value term relative to other terms.
// Requests carry the values of their arguments ("a base of 10 units", "on
// 2023-10-02", "account 987654"), and a number in a request is much more
// often such a value than a word that names a tool, so it counts for half.
// The weight scales the term's every score, so a query of that term alone
// ranks as before.
const valueTermWeight = 0.5

// isValueTerm reports whether term has a digit in it: a number, a date, an
// id or a version. In a tool, such a term is an index or a version
// ("Hotels_4_SearchHotel", "v2") rather than a word of what the tool does,
// so it does not count in the length of its field either.
func isValueTerm(term string) bool {
	for i := 0; i < len(term); i++ {
		if '0' <= term[i] && term[i] <= '9' {
			return true
		}
	}
	return false
}

// termWeight returns the weight of term in every score it adds to:
// [valueTermWeight] for a value term, 1 otherwise.
func termWeight(term string) float64 {
	if isValueTerm(term) {
		return valueTermWeight
	}
	return 1
}

// isCommon reports whether a term in df of n tools is common: it adds to the
// scores of the tools a query's rarer terms find, and finds tools itself only
// when they find none.
func isCommon(df, n int) bool {
	return df >= minCommonTools && float64(df) > commonShare*float64(n)
}

// nameShareWeight is what a query adds, in units of a term's inverse
// document frequency, for holding all of a tool's name words: each name word
// the query holds adds its share of the name times this weight, on top of the
// BM25F score. A name says in a few words what the tool does, so a tool whose
// name the query spells out in full ("current weather" for
// get_current_weather) ranks ahead of one whose longer name it matches in
// part. The words of the name's namespace count in its length but add no
// share: "euro" in a request for euros does not spell out
// euro_history.treaty_info.
const nameShareWeight = 0.3

// toolScales are a tool's weights of one occurrence of a term: in each field
// for BM25F, and in its name for the name share.
type toolScales struct {
	field [numFields]float32
	// nameWord is nameShareWeight over the number of the name's terms,
	// its namespace's included.
	nameWord float32
}

// fieldScales returns, for each tool with the given field lengths, the
// BM25F weight of one occurrence of a term in each field (the field weight
// over the field's length normalization against the catalog's average) and
// the weight of one occurrence in its name for the name share. Most lengths
// are small, so the weights of lengths below [scaleTableLen] are computed
// once per field, the same expression giving the same weight.
func fieldScales(lengths [][numFields]int64) []toolScales {
	var avg [numFields]float64
	for i := range lengths {
		for f := range numFields {
			avg[f] += float64(lengths[i][f])
		}
	}
	for f := range numFields {
		avg[f] /= float64(max(len(lengths), 1))
	}
	var table [numFields][scaleTableLen]float32
	var nameWords [scaleTableLen]float32
	for l := range int64(scaleTableLen) {
		for f := range numFields {
			table[f][l] = fieldScale(f, l, avg[f])
		}
		nameWords[l] = nameWordScale(l)
	}
	scales := make([]toolScales, len(lengths))
	for i := range lengths {
		for f, l := range lengths[i] {
			if uint64(l) < scaleTableLen {
				scales[i].field[f] = table[f][l]
			} else {
				scales[i].field[f] = fieldScale(f, l, avg[f])
			}
		}
		if n := lengths[i][FieldName] + lengths[i][FieldNamespace]; uint64(n) < scaleTableLen {
			scales[i].nameWord = nameWords[n]
		} else {
			scales[i].nameWord = nameWordScale(n)
		}
	}
	return scales
}

// scaleTableLen bounds the field lengths whose weights [fieldScales]
// computes once.
const scaleTableLen = 64

// maxDescriptionLength bounds the length of a description, relative to
// the catalog's average, that discounts its terms. Past a few times the
// average, what a description adds is rarely more about what the tool does:
// setup notes, examples, paths of a container, the same paragraph in every
// tool of a server. Without a bound, a tool with a description twenty times
// the average ("start_process" of a desktop server, 4,000 characters)
// ranks below tools matching one request word in passing though it holds
// three of them ("analyze", "csv", "show"); with it, the words of a long
// description weigh as in one three times the average.
const maxDescriptionLength = 3

// fieldScale is the BM25F weight of one occurrence of a term in field f of
// length l, the field's average length being avg.
func fieldScale(f int, l int64, avg float64) float32 {
	norm := 1.0
	if avg > 0 {
		x := float64(l) / avg
		if Field(f) == FieldDescription {
			x = min(x, maxDescriptionLength)
		}
		norm = 1 - fieldB[f] + fieldB[f]*x
	}
	return float32(fieldWeight[f] / norm)
}

// nameWordScale is the weight of one occurrence of a term in a name of n
// terms (its namespace's included) for the name share: none in an empty
// name.
func nameWordScale(n int64) float32 {
	if n <= 0 {
		return 0
	}
	return float32(nameShareWeight / float64(n))
}

// termScore is the score of a term with inverse document frequency termIDF
// and counts tc in a tool whose scales are w: the BM25F score (the weighted
// counts summed, then saturated once with k1) plus the term's share of the
// tool's name outside its namespace, both times termIDF.
func termScore(termIDF float32, tc *FieldCounts, w *toolScales) float32 {
	pseudo := w.field[FieldName]*float32(tc.Name) +
		w.field[FieldTitle]*float32(tc.Title) +
		w.field[FieldDescription]*float32(tc.Description) +
		w.field[FieldParamName]*float32(tc.ParamName) +
		w.field[FieldParamDescription]*float32(tc.ParamDescription) +
		w.field[FieldExtra]*float32(tc.Extra) +
		w.field[FieldNamespace]*float32(tc.Namespace)
	return termIDF * (pseudo/(k1+pseudo) + w.nameWord*float32(tc.Name))
}
