package toolsearch

import "math"

// The BM25F parameters. A term's frequencies in a tool's fields are each
// normalized by the field's length relative to its average, weighted by the
// field, summed, and saturated once with k1; the inverse document frequency
// makes rare terms count more than common ones. Name words weigh most, so a
// name match outranks a description match.
const (
	k1 = 1.2
	// commonShare: a term in more than this share of the tools (and in at
	// least minCommonTools of them) is too common to find a tool by.
	commonShare    = 0.5
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
	}
	fieldB = [numFields]float64{
		FieldName:             0.3,
		FieldTitle:            0.5,
		FieldDescription:      0.75,
		FieldParamName:        0.75,
		FieldParamDescription: 0.75,
		FieldExtra:            0.5,
	}
)

// idf is the inverse document frequency of a term in df of n tools; it is
// positive for every df <= n.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// isCommon reports whether a term in df of n tools is too common to find a
// tool by: such a term neither scores nor qualifies a tool.
func isCommon(df, n int) bool {
	return df >= minCommonTools && float64(df) > commonShare*float64(n)
}

// impact is the BM25F score of one term in one tool: tf holds the term's
// frequency per field, length the tool's field lengths and avg the average
// field lengths of the catalog.
func impact(termIDF float64, tf *[numFields]int32, length, avg *[numFields]float64) float64 {
	var pseudo float64
	for f := range numFields {
		if tf[f] == 0 {
			continue
		}
		norm := 1.0
		if avg[f] > 0 {
			norm = 1 - fieldB[f] + fieldB[f]*length[f]/avg[f]
		}
		pseudo += fieldWeight[f] * float64(tf[f]) / norm
	}
	return termIDF * pseudo / (k1 + pseudo)
}
