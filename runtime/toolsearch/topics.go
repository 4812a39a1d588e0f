package toolsearch

import "slices"

// A topic is a word that names a field of things: "weather" is the forecast,
// the temperature, the wind, the rain. A request for "weather" on a weather
// server means every tool about it, also those that name only their part of
// it (get_wind, get_forecast): a topic scores, in a tool that has none of it
// or its synonyms, topicWeight times the best score there of the words of
// the topic, as a synonym does. And when the topic is all that a query
// finds tools with ("weather", "what's the weather like in Tokyo right
// now"), the query asks for the topic at large, and the tool that says most
// about it (the current conditions: temperature, humidity, wind) comes
// before the tool that says the word once (a past date's weather): the
// topic's words then add to its score in the tools that have it too. Like
// the date table, the topics are general knowledge written before
// measuring; they know nothing of any catalog.
var topicWords = [...]struct {
	topic string
	words []string
}{
	{"weather", []string{"forecast", "temperature", "humidity", "wind", "rain", "snow", "precipitation",
		"storm", "uv", "cloud", "fog", "frost", "hail", "thunder"}},
}

// topicWeight is the share of the best score of a topic's words that the
// topic adds to a tool's score.
const topicWeight = 0.25

// topicTerms are the topics as [Terms] gives them, each with its words.
var topicTerms = func() map[string][]string {
	topics := make(map[string][]string, len(topicWords))
	for _, tw := range topicWords {
		var words []string
		for _, w := range tw.words {
			words = append(words, Terms(w)...)
		}
		topics[Terms(tw.topic)[0]] = words
	}
	return topics
}()

// findTopics returns, for every topic whose words a tool has, the terms of
// its words that tools have, in the order of the table, adding the topic to
// the index without postings when no tool has it, and the topic read at
// large as a term of its own ([Index.broadTopic]), without postings or a
// key that [Terms] gives. It runs before the terms are weighed.
func (ix *Index) findTopics() (topics map[int32][]int32, broad, narrow map[int32]int32) {
	for _, tw := range topicWords {
		topic := Terms(tw.topic)[0]
		var ids []int32
		for _, w := range topicTerms[topic] {
			if id, ok := ix.terms.lookupString(w); ok && len(ix.postings[id]) > 0 && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		id, added := ix.terms.add(topic)
		if added {
			ix.postings = append(ix.postings, nil)
		}
		wide, _ := ix.terms.add("\x00" + topic)
		ix.postings = append(ix.postings, nil)
		if topics == nil {
			topics, broad, narrow = make(map[int32][]int32), make(map[int32]int32), make(map[int32]int32)
		}
		topics[id], topics[wide] = ids, ids
		broad[id], narrow[wide] = wide, id
	}
	return topics, broad, narrow
}

// broadTopic turns the query's only finding term into the topic read at
// large when it is a topic and nothing adds to it.
func (ix *Index) broadTopic(st *searchState) {
	if len(st.finders) != 1 || len(st.adders) != 0 {
		return
	}
	if wide, ok := ix.broad[st.finders[0].term]; ok {
		st.finders[0].term = wide // st.finders is the query's own list
	}
}

// withTopic adds to the postings p of a topic, in tool order, topicWeight
// times the best score of one of its words in every tool that has one (of
// equal scores, that of the word first in the table), with its fields: as a
// posting of its own in a tool without the topic, and, when broad, also to
// the score of a tool with it. The result is in tool order.
func (ix *Index) withTopic(p []posting, words []int32, broad bool) []posting {
	var best []posting
	for _, w := range words {
		counts := ix.postings[w]
		for i := range counts {
			c := &counts[i]
			best = append(best, posting{tool: c.Tool, score: termScore(ix.idf[w], &c.Counts, &ix.scales[c.Tool]), fields: c.Counts.fields()})
		}
	}
	slices.SortStableFunc(best, func(a, b posting) int {
		switch {
		case a.tool != b.tool:
			return int(a.tool - b.tool)
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	merged := make([]posting, 0, len(p)+len(best))
	i := 0
	for j, b := range best {
		if j > 0 && best[j-1].tool == b.tool {
			continue
		}
		for i < len(p) && p[i].tool < b.tool {
			merged = append(merged, p[i])
			i++
		}
		if i < len(p) && p[i].tool == b.tool {
			if broad {
				merged = append(merged, posting{tool: b.tool, score: p[i].score + topicWeight*b.score, fields: p[i].fields | b.fields})
			} else {
				merged = append(merged, p[i])
			}
			i++
			continue
		}
		merged = append(merged, posting{tool: b.tool, score: topicWeight * b.score, fields: b.fields})
	}
	return append(merged, p[i:]...)
}
