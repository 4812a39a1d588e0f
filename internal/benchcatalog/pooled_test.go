package benchcatalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// TestPooled checks that a pooled catalog has n uniquely named tools under
// the servers' prefixes, in every variant, the same every time.
func TestPooled(t *testing.T) {
	docs := []toolsearch.Document{
		{Name: "get_weather", Description: "Get the current weather for a city. Units are metric."},
		{Name: "calculate_area", Description: "Calculate the area of a shape."},
		{Name: "getWeather", Description: "Get the weather."},
	}
	out := Pooled(docs, 3*len(servers)+8)
	if len(out) != 3*len(servers)+8 {
		t.Fatalf("%d tools", len(out))
	}
	names := make(map[string]bool)
	variants := map[string]bool{}
	for i, d := range out {
		if names[d.Name] {
			t.Errorf("%q twice", d.Name)
		}
		names[d.Name] = true
		c := i/len(docs) - 1
		if c < 0 {
			if d.Name != docs[i].Name || d.Description != docs[i].Description {
				t.Errorf("tool %d = %+v, want the original", i, d)
			}
			continue
		}
		prefix := servers[c%len(servers)]
		if c >= len(servers) {
			prefix = fmt.Sprintf("%s%d", prefix, c/len(servers)+1)
		}
		if !strings.HasPrefix(d.Name, prefix+".") {
			t.Errorf("tool %d named %q, want prefix %s.", i, d.Name, prefix)
		}
		variants[strings.TrimPrefix(d.Name, prefix+".")+"|"+d.Description] = true
	}
	for _, want := range []string{
		"get_weather|Get the current weather for a city. Units are metric.", // as is
		"getWeather|Get the current weather for a city. Units are metric.",  // camelCase
		"weather_get|Get the current weather for a city. Units are metric.", // reordered
		"fetch_weather|Fetch the current weather for a city. Units are metric.",
		"get_weather|Get the current weather for a city.", // cut
		"fetchWeather|Get the current weather for a city. Units are metric.",
		"compute_area|Compute the area of a shape.",
	} {
		if !variants[want] {
			t.Errorf("no variant %q", want)
		}
	}
	if fmt.Sprint(Pooled(docs, len(out))) != fmt.Sprint(out) {
		t.Error("a second catalog differs from the first")
	}
	if _, err := toolsearch.NewIndexFromDocuments(out); err != nil {
		t.Errorf("index: %v", err)
	}
}
