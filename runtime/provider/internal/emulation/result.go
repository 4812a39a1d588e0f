package emulation

import (
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// ResultText returns the text a model reads as the result of a discovery
// call. declared says, for each discovered tool, the name the request
// declares it under; a tool the request does not declare (withheld by
// policy, superseded, or a structured-output request) is not listed, so the
// model never reads of a tool it may not call.
//
// The text gives the number of tools listed, then one line per tool with
// its name and the first line of its description; without tools it is the
// result's note (which explains why), or says that none were found.
func ResultText(r model.DiscoveryResult, declared func(name string) (string, bool)) string {
	return resultText(r, declared, declaredPhrases)
}

// phrases open a result listing one tool and several tools.
type phrases struct{ one, many string }

var (
	declaredPhrases = phrases{
		one:  "Found 1 tool; it is declared from the next step on and can be called by its name:",
		many: " tools; they are declared from the next step on and can be called by their names:",
	}
	catalogPhrases = phrases{
		one:  "Found 1 tool; the tool catalog lists its definition and it is called through " + discovery.DispatcherName + ":",
		many: " tools; the tool catalog lists their definitions and they are called through " + discovery.DispatcherName + ":",
	}
)

func resultText(r model.DiscoveryResult, declared func(name string) (string, bool), ph phrases) string {
	var lines []string
	for _, s := range r.Tools {
		name, ok := declared(s.Name)
		if !ok {
			continue
		}
		line := "- " + name
		if d, _, _ := strings.Cut(s.Description, "\n"); d != "" {
			line += ": " + d
		}
		lines = append(lines, line)
	}
	var b strings.Builder
	switch {
	case len(lines) == 0 && len(r.Tools) > 0:
		b.WriteString("No tools found that can be called now.")
	case len(lines) == 0 && r.Note != "":
		b.WriteString(r.Note)
	case len(lines) == 0:
		b.WriteString("No tools found.")
	case len(lines) == 1:
		b.WriteString(ph.one)
	default:
		b.WriteString("Found ")
		b.WriteString(strconv.Itoa(len(lines)))
		b.WriteString(ph.many)
	}
	for _, l := range lines {
		b.WriteString("\n")
		b.WriteString(l)
	}
	return b.String()
}
