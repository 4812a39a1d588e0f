package benchcatalog

import (
	"fmt"
	"math/rand/v2"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// Repeated makes a catalog of n tools by repeating docs, renaming every copy
// after the first under a namespace of its own, "copyN.NAME", as a catalog
// pooled from several servers names their tools. (Named "NAME.copyN", a
// copy's whole original name would be its namespace and its name field
// would hold only "copyN", which counts in no length: the names of nearly
// every tool of a large catalog would be empty, and their average length
// near zero would weigh the originals' names down.) A copy's tools are alike
// but for their names, so search scores them as one group.
func Repeated(docs []toolsearch.Document, n int) []toolsearch.Document {
	out := make([]toolsearch.Document, n)
	for i := range out {
		d := docs[i%len(docs)]
		if c := i / len(docs); c > 0 {
			d.Name = fmt.Sprintf("copy%d.%s", c, d.Name)
			d.Alias = ""
		}
		out[i] = d
	}
	return out
}

// Distinct is [Repeated] with the namespace of every copy, "copyN", also in
// the copy's description: no two tools are alike, but every tool of docs
// has a family of copies that differ from it by one word.
func Distinct(docs []toolsearch.Document, n int) []toolsearch.Document {
	out := Repeated(docs, n)
	for i := len(docs); i < len(out); i++ {
		out[i].Description += fmt.Sprintf(" copy%d", i/len(docs))
	}
	return out
}

// Shuffled is [Distinct] with the description and the parameters of every
// copy taken from two tools of docs drawn at random (the same draws every
// time): a catalog without families of tools alike, whose tools match a
// request in one field each more often than in all.
func Shuffled(docs []toolsearch.Document, n int) []toolsearch.Document {
	out := Distinct(docs, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := len(docs); i < len(out); i++ {
		out[i].Description = docs[r.IntN(len(docs))].Description + fmt.Sprintf(" copy%d", i/len(docs))
		out[i].Parameters = docs[r.IntN(len(docs))].Parameters
	}
	return out
}
