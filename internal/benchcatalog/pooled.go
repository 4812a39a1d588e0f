package benchcatalog

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// servers are the prefixes of the servers a pooled catalog publishes docs
// under, as a gateway names the servers it pools.
var servers = [28]string{
	"github", "gitlab", "jira", "linear", "slack", "notion", "drive", "dropbox", "stripe", "shopify",
	"hubspot", "zendesk", "salesforce", "twilio", "sendgrid", "calendar", "maps", "weather", "finance",
	"sports", "music", "travel", "health", "science", "math", "search", "files", "admin",
}

// verbSynonyms reword a tool: the first word of each pair is replaced by the
// second, in names and descriptions, as another server says the same thing.
var verbSynonyms = map[string]string{
	"get": "fetch", "find": "search", "search": "find", "calculate": "compute", "compute": "calculate",
	"create": "add", "list": "show", "retrieve": "get", "update": "modify", "delete": "remove",
	"send": "post", "book": "reserve", "check": "verify", "convert": "transform", "generate": "make",
}

// Pooled makes a catalog of n tools the way a gateway pools many servers:
// docs as they are, then their tools published under 28 server prefixes
// ("github.NAME", then "github2.NAME" and on when n needs more rounds), each server's copy
// of a tool in one of six variants chosen by the copy and the tool: as it
// is; its name in camelCase; the words of its name reordered (the last
// first); its verbs replaced by synonyms in name and description ("get" by
// "fetch", "calculate" by "compute"); its description cut to its first
// sentence or twelve words; its name in camelCase with its verbs replaced.
// The catalog is the same every time; names are unique within it.
func Pooled(docs []toolsearch.Document, n int) []toolsearch.Document {
	out := make([]toolsearch.Document, n)
	seen := make(map[string]bool, n)
	for i := range out {
		d := docs[i%len(docs)]
		c := i / len(docs)
		if c == 0 {
			seen[d.Name] = true
			out[i] = d
			continue
		}
		c--
		prefix := servers[c%len(servers)]
		if round := c / len(servers); round > 0 {
			prefix = fmt.Sprintf("%s%d", prefix, round+1)
		}
		name := d.Name
		switch variant := (c*7 + i%len(docs)*3) % 6; variant {
		case 1:
			name = camelCase(nameWords(name))
		case 2:
			w := nameWords(name)
			name = strings.Join(append(w[len(w)-1:], w[:len(w)-1]...), "_")
		case 3:
			name = strings.Join(reword(nameWords(name)), "_")
			d.Description = strings.Join(reword(strings.Fields(d.Description)), " ")
		case 4:
			d.Description = cut(d.Description)
		case 5:
			name = camelCase(reword(nameWords(name)))
		}
		name = prefix + "." + name
		for k := 2; seen[name]; k++ {
			name = fmt.Sprintf("%s.%s_%d", prefix, strings.TrimPrefix(name, prefix+"."), k)
		}
		seen[name] = true
		d.Name, d.Alias = name, ""
		out[i] = d
	}
	return out
}

// nameWords splits a name at everything but letters and digits and at case
// changes from lower to upper.
func nameWords(name string) []string {
	var words []string
	var b strings.Builder
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			if b.Len() > 0 {
				words = append(words, b.String())
				b.Reset()
			}
			prev = r
			continue
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) && b.Len() > 0:
			words = append(words, b.String())
			b.Reset()
		}
		b.WriteRune(r)
		prev = r
	}
	if b.Len() > 0 {
		words = append(words, b.String())
	}
	if len(words) == 0 {
		words = []string{name}
	}
	return words
}

func camelCase(words []string) string {
	var b strings.Builder
	for i, w := range words {
		w = strings.ToLower(w)
		if i > 0 && w != "" {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// reword replaces the words that have a synonym, keeping their first
// letter's case.
func reword(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w
		if s, ok := verbSynonyms[strings.ToLower(w)]; ok {
			if w[0] >= 'A' && w[0] <= 'Z' {
				s = strings.ToUpper(s[:1]) + s[1:]
			}
			out[i] = s
		}
	}
	return out
}

// cut returns the first sentence of a description, or its first twelve
// words when that is shorter.
func cut(desc string) string {
	if i := strings.Index(desc, ". "); i >= 0 {
		desc = desc[:i+1]
	}
	if w := strings.Fields(desc); len(w) > 12 {
		desc = strings.Join(w[:12], " ")
	}
	return desc
}
