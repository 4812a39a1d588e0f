package toolsearch

import (
	"cmp"
	"slices"
	"strconv"
)

// synonymWeight is the share of a synonym's score that a term gives a tool
// that has the synonym but not the term itself.
const synonymWeight = 0.25

// synonymGroups are verbs that tools use for the same action, as [Terms]
// gives them: a request to "find" a hotel means the tool that "searches for
// accommodations", one to "get" the weather the tool that "retrieves" it.
// The list is general English for what tools do; it knows nothing about any
// catalog.
var synonymGroups = [...][]string{
	{"find", "search", "locat", "lookup", "discover"},
	{"get", "retriev", "fetch", "obtain"},
	{"calculat", "comput", "determin"},
	{"creat", "add", "mak", "open"},
	{"book", "reserv"},
	{"issu", "bug"},
}

// categoryInstances are words of general knowledge that name an instance of
// a category that tools name, as [Terms] gives them: a month, a day of the
// week, a day of the month ("5th") and a year are dates, so a request for
// the forecast "on March 5th 2023" or "next Monday" means the tool that
// takes "the date of the forecast". An instance stands for its category as
// a synonym does, [synonymWeight] of the category's score in a tool that has
// the category but not the instance; the category does not stand for its
// instances. May is left out: as a term it is the request word
// ([isFrameTerm]) far more often.
var categoryInstances = [...]struct {
	category  string
	instances []string
}{
	{"dat", dateInstances()},
}

// dateInstances returns the months but May, the days of the week, the days
// of a month as ordinals (1st to 31st) and the years 1900 to 2099.
func dateInstances() []string {
	words := []string{
		"januari", "februari", "march", "april", "jun", "juli", "august", "september", "october", "november", "december",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	}
	for day := 1; day <= 31; day++ {
		suffix := "th"
		if day < 10 || day > 20 {
			switch day % 10 {
			case 1:
				suffix = "st"
			case 2:
				suffix = "nd"
			case 3:
				suffix = "rd"
			}
		}
		words = append(words, strconv.Itoa(day)+suffix)
	}
	for year := 1900; year < 2100; year++ {
		words = append(words, strconv.Itoa(year))
	}
	return words
}

// synonymTerms is the number of terms of the synonym groups and the
// category instances, the most that [Index.findSynonyms] adds to an index:
// room kept for them spares the index's terms a copy.
var synonymTerms = func() int {
	n := 0
	for _, g := range synonymGroups {
		n += len(g)
	}
	for _, c := range categoryInstances {
		n += len(c.instances)
	}
	return n
}()

// findSynonyms returns, for every term of a synonym group that has a term in
// the index, the other terms of its group, and for every instance of a
// category that tools have ([categoryInstances]), the category. It adds the
// group's terms and the instances that no tool has to the index, without
// postings, so that a query saying "find" reaches the tools that say
// "search" in a catalog where none says "find". It runs before the terms are
// weighed.
func (ix *Index) findSynonyms() map[int32][]int32 {
	var synonyms map[int32][]int32
	for _, g := range synonymGroups {
		if !slices.ContainsFunc(g, func(term string) bool {
			_, ok := ix.terms.lookupString(term)
			return ok
		}) {
			continue
		}
		ids := make([]int32, len(g))
		for i, term := range g {
			id, added := ix.terms.add(term)
			if added {
				ix.postings = append(ix.postings, nil)
			}
			ids[i] = id
		}
		if synonyms == nil {
			synonyms = make(map[int32][]int32)
		}
		for _, id := range ids {
			for _, other := range ids {
				if other != id {
					synonyms[id] = append(synonyms[id], other)
				}
			}
		}
	}
	for _, c := range categoryInstances {
		category, ok := ix.terms.lookupString(c.category)
		if !ok || len(ix.postings[category]) == 0 {
			continue
		}
		if synonyms == nil {
			synonyms = make(map[int32][]int32, len(c.instances))
		}
		// The instances share one list of the category, which none
		// appends to: an instance that is also a term of a group
		// gets a list of its own.
		alone := []int32{category}
		for _, term := range c.instances {
			id, added := ix.terms.add(term)
			if added {
				ix.postings = append(ix.postings, nil)
			}
			if s := synonyms[id]; len(s) > 0 {
				synonyms[id] = append(s[:len(s):len(s)], category)
			} else {
				synonyms[id] = alone
			}
		}
	}
	return synonyms
}

// withSynonyms returns the postings own of a term with those of the tools
// that have one of its synonyms but not the term: each scores
// [synonymWeight] times the best score of a synonym there (of equal ones,
// that of the synonym first in its group), in the fields of that synonym.
// The result is in tool order, as own is.
func (ix *Index) withSynonyms(own []posting, synonyms []int32) []posting {
	var extra []posting
	for _, s := range synonyms {
		counts := ix.postings[s]
		for i := range counts {
			c := &counts[i]
			score := synonymWeight * termScore(ix.idf[s], &c.Counts, &ix.scales[c.Tool])
			extra = append(extra, posting{tool: c.Tool, score: score, fields: c.Counts.fields()})
		}
	}
	if len(extra) == 0 {
		return own
	}
	// Best score first within a tool, so the first of each tool is kept;
	// of equal scores, that of the synonym first in its group.
	slices.SortStableFunc(extra, func(a, b posting) int {
		if c := cmp.Compare(a.tool, b.tool); c != 0 {
			return c
		}
		return cmp.Compare(b.score, a.score)
	})
	merged := make([]posting, 0, len(own)+len(extra))
	i := 0
	for j, e := range extra {
		if j > 0 && extra[j-1].tool == e.tool {
			continue
		}
		for i < len(own) && own[i].tool < e.tool {
			merged = append(merged, own[i])
			i++
		}
		if i < len(own) && own[i].tool == e.tool {
			continue // the tool has the term itself
		}
		merged = append(merged, e)
	}
	return append(merged, own[i:]...)
}
