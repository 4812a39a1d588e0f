package toolsearch

import (
	"encoding/json"
	"slices"
	"testing"
)

// weatherServer is the catalog of a weather server: nine tools, four with
// "weather" in their names.
func weatherServer() []Document {
	location := `"location":{"type":"string","description":"City name or latitude,longitude"}`
	return []Document{
		{Name: "get_current_weather", Description: "Get the current weather conditions at a location: temperature, humidity, wind speed and sky cover.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `,"units":{"type":"string","enum":["metric","imperial"]}},"required":["location"]}`)},
		{Name: "get_forecast", Description: "Daily forecast for the next 1 to 16 days: high and low temperatures, chance of rain and conditions.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `,"days":{"type":"integer","description":"Number of days"}}}`)},
		{Name: "get_hourly_forecast", Description: "Hour-by-hour forecast for the next 48 hours.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `}}`)},
		{Name: "get_historical_weather", Description: "Weather observed at a location on a past date.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `,"date":{"type":"string","description":"Date, YYYY-MM-DD"}}}`)},
		{Name: "get_weather_alerts", Description: "Active severe weather warnings and watches for an area.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"area":{"type":"string","description":"State or region code"}}}`)},
		{Name: "get_precipitation", Description: "Chance and amount of rain or snow expected at a location over the next hours.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `}}`)},
		{Name: "get_uv_index", Description: "UV index for today and the coming days, with sun protection advice.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `}}`)},
		{Name: "get_wind", Description: "Wind speed, gusts and direction at a location, now and for the next hours.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + location + `}}`)},
		{Name: "get_weather_map", Description: "Radar or satellite weather map image of a region.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string"},"layer":{"type":"string","enum":["radar","satellite","temperature"]}}}`)},
	}
}

// codeHosting is the catalog of a code-hosting server: five tools, as such
// servers describe them.
func codeHosting() []Document {
	repo := `"owner":{"type":"string","description":"Repository owner"},"repo":{"type":"string","description":"Repository name"}`
	return []Document{
		{Name: "list_pull_requests", Description: "List pull requests in a repository.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + repo + `,"state":{"type":"string","description":"Filter by state","enum":["open","closed","all"]}}}`)},
		{Name: "create_issue", Description: "Create a new issue in a repository.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + repo + `,"title":{"type":"string","description":"Issue title"},"body":{"type":"string","description":"Issue body"},"labels":{"type":"array","items":{"type":"string"}}}}`)},
		{Name: "list_issues", Description: "List issues in a repository, filtered by state and labels.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + repo + `,"state":{"type":"string","enum":["open","closed","all"]}}}`)},
		{Name: "get_file_contents", Description: "Get the contents of a file or directory in a repository.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + repo + `,"path":{"type":"string","description":"Path to the file"}}}`)},
		{Name: "merge_pull_request", Description: "Merge a pull request.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` + repo + `,"pull_number":{"type":"integer"}}}`)},
	}
}

// TestSmallCatalogs checks rankings that a user expects on the catalogs of
// small servers: the first tools, in order, and the tools the ranking must
// hold (in any order) or must not.
func TestSmallCatalogs(t *testing.T) {
	weatherTools := []string{"get_current_weather", "get_forecast", "get_hourly_forecast", "get_historical_weather",
		"get_weather_alerts", "get_precipitation", "get_uv_index", "get_wind", "get_weather_map"}
	for _, c := range []struct {
		name     string
		catalog  []Document
		query    string
		first    []string // the ranking begins with these
		holds    []string // and holds these
		notFirst string   // and does not begin with this
		above    []string // and ranks these in this order, others between them
	}{
		{"a topic finds all its tools", weatherServer(), "weather", []string{"get_current_weather"}, weatherTools, "", nil},
		{"now is not a content word", weatherServer(), "what's the weather like in Tokyo right now", []string{"get_current_weather"}, nil, "get_wind", nil},
		{"an adjective finds its noun", weatherServer(), "how windy is it", []string{"get_wind"}, nil, "", nil},
		{"rainy", weatherServer(), "will it be rainy tomorrow", []string{"get_precipitation"}, nil, "", nil},
		{"forecast", weatherServer(), "forecast for Paris this week", []string{"get_forecast"}, []string{"get_hourly_forecast"}, "", nil},
		{"open a bug report", codeHosting(), "open a bug report", nil, []string{"create_issue"}, "list_pull_requests", []string{"create_issue", "list_pull_requests"}},
		{"create an issue", codeHosting(), "create an issue", []string{"create_issue"}, nil, "", nil},
		{"list open pull requests", codeHosting(), "list open pull requests", []string{"list_pull_requests"}, nil, "", nil},
		{"merge", codeHosting(), "merge the PR", []string{"merge_pull_request"}, nil, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ix := mustIndex(t, c.catalog)
			got := names(ix.Search(c.query, 20))
			if len(got) < len(c.first) || !slices.Equal(got[:len(c.first)], c.first) {
				t.Errorf("Search(%q) = %q, want it to begin with %q", c.query, got, c.first)
			}
			for _, h := range c.holds {
				if !slices.Contains(got, h) {
					t.Errorf("Search(%q) = %q, want it to hold %s", c.query, got, h)
				}
			}
			if c.notFirst != "" && len(got) > 0 && got[0] == c.notFirst {
				t.Errorf("Search(%q) = %q, want %s not first", c.query, got, c.notFirst)
			}
			at := -1
			for _, a := range c.above {
				i := slices.Index(got, a)
				if i <= at {
					t.Errorf("Search(%q) = %q, want %q in this order", c.query, got, c.above)
					break
				}
				at = i
			}
			checkAgainstReference(t, ix, []string{c.query}, []int{1, 5, 20})
		})
	}
}

// TestTopicWordsAreStemmed checks that every topic and its words are words
// the analyzer keeps whole, one term each.
func TestTopicWordsAreStemmed(t *testing.T) {
	for _, tw := range topicWords {
		for _, w := range append([]string{tw.topic}, tw.words...) {
			if terms := Terms(w); len(terms) != 1 || isFrameTerm([]byte(terms[0])) {
				t.Errorf("Terms(%q) = %q, want one term that is not a frame word", w, terms)
			}
		}
	}
}
