package openai

import (
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// wire is how one request names its tools on the wire, built while the
// request renders and used again to decode the response: top-level function
// names, and (native) namespaces with the names of the functions inside.
type wire struct {
	native bool
	// store is false when requests ask the provider to keep nothing.
	store bool
	// flat maps top-level function names.
	flat *openaiwire.NameMap
	// namespaces maps toolset names to namespace names.
	namespaces *openaiwire.NameMap
	// inside maps, per namespace wire name, the functions loaded in it.
	inside map[string]*openaiwire.NameMap
	// namespaceOf is the namespace wire name of each loaded namespaced tool.
	namespaceOf map[string]string
	// discovery is the discovery tool's name, "" when none is declared.
	discovery string
	// discovered holds the discovered tools the request declares, by name.
	discovered map[string]model.ToolDefinition
	// loaded holds the tools a rendered tool_search_output loaded.
	loaded map[string]bool
	// namespaceText describes namespaces by toolset (WithNamespaceDescriptions).
	namespaceText map[string]string
	// conv is the conversation catalog rendering, nil in the others.
	conv *emulation.Conversation
}

// finish completes a decoded response (conversation catalog mode).
func (w *wire) finish(resp *model.Response, err error) (*model.Response, error) {
	if err == nil && w.conv != nil {
		w.conv.Finish(resp)
	}
	return resp, err
}

func newWire(native bool) *wire {
	return &wire{
		native:      native,
		flat:        openaiwire.NewNameMap("request"),
		namespaces:  openaiwire.NewNameMap("namespaces"),
		inside:      map[string]*openaiwire.NameMap{},
		namespaceOf: map[string]string{},
		discovered:  map[string]model.ToolDefinition{},
		loaded:      map[string]bool{},
	}
}

// flatName records and returns the top-level wire name of a tool.
func (w *wire) flatName(neutral string) (string, error) {
	return w.flat.Add(neutral, openaiwire.LegalName(neutral))
}

// load records a tool loaded into the namespace of its toolset and returns
// the namespace's wire name and the function's name inside it: the tool's
// name without the "<toolset>_" prefix, when it has one.
func (w *wire) load(toolset, neutral string) (string, string, error) {
	ns, err := w.namespaces.Add(toolset, openaiwire.LegalName(toolset))
	if err != nil {
		return "", "", err
	}
	names := w.inside[ns]
	if names == nil {
		names = openaiwire.NewNameMap(fmt.Sprintf("namespace %q", ns))
		w.inside[ns] = names
	}
	short := neutral
	if rest, ok := strings.CutPrefix(neutral, toolset+"_"); ok && rest != "" {
		short = rest
	}
	name, err := names.Add(neutral, openaiwire.LegalName(short))
	if err != nil {
		return "", "", err
	}
	w.namespaceOf[neutral] = ns
	return ns, name, nil
}

// callName returns the wire name (and namespace, for a tool loaded in one)
// under which a call of the tool is rendered.
func (w *wire) callName(neutral string) (namespace, name string, err error) {
	if ns, ok := w.namespaceOf[neutral]; ok {
		name, _ := w.inside[ns].Provider(neutral)
		return ns, name, nil
	}
	name, err = w.flatName(neutral)
	return "", name, err
}

// neutralName maps a called function back to the conversation's tool name.
// A name the request did not declare comes back as the model wrote it
// (joined to its namespace with a dot), so the caller rejects the call as a
// call of an unknown tool.
func (w *wire) neutralName(namespace, name string) string {
	if namespace != "" {
		if names := w.inside[namespace]; names != nil {
			if n, ok := names.Neutral(name); ok {
				return n
			}
		}
		return namespace + "." + name
	}
	return w.flatNeutral(name)
}

// discoveryName returns the wire name of the discovery function (emulated).
// It is discovery.ToolName whether or not the request declares the tool, so
// earlier discovery calls render the same when discovery is off.
func (w *wire) discoveryName() (string, error) {
	return w.flatName(discovery.ToolName)
}

// flatNeutral maps a top-level wire name back to the conversation's name;
// an unknown name stays as written.
func (w *wire) flatNeutral(name string) string {
	if n, ok := w.flat.Neutral(name); ok {
		return n
	}
	return name
}
