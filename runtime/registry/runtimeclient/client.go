package runtimeclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Client adapts a registry.Consumer to runtime.RegistryClient.
type Client struct {
	consumer registry.Consumer
}

var (
	_ runtime.RegistryClient        = (*Client)(nil)
	_ runtime.PinnedVersionResolver = (*Client)(nil)
	_ runtime.ToolsetsResolver      = (*Client)(nil)
)

// ErrToolFailed is matched by the error CallTool returns when the tool ran
// and reported its own failure; the error's text is the tool's message.
var ErrToolFailed = errors.New("tool failed")

// New returns a runtime registry client reading and calling through c.
func New(c registry.Consumer) *Client { return &Client{consumer: c} }

// NewHTTP returns a runtime registry client of the registry served at
// baseURL, through a registry.Client built with opts; credentials go there
// (registry.WithBearerToken, or registry.WithHTTPClient with a client
// certificate).
func NewHTTP(baseURL string, opts ...registry.ClientOption) (*Client, error) {
	c, err := registry.NewClient(baseURL, opts...)
	if err != nil {
		return nil, err
	}
	return New(c), nil
}

// ResolveToolset reads the current registration of one toolset. A missing
// toolset matches registry.ErrToolsetNotFound.
func (c *Client) ResolveToolset(ctx context.Context, toolset string) (*runtime.ResolvedToolset, error) {
	return c.resolve(ctx, registry.ToolsetRef{Name: toolset})
}

// ResolveToolsetVersion reads the current registration of one toolset and
// has the registry check its version: a current version other than version
// matches registry.ErrVersionMismatch, a missing toolset
// registry.ErrToolsetNotFound. It never selects an older registration. An
// empty version pins nothing and is refused.
func (c *Client) ResolveToolsetVersion(ctx context.Context, toolset, version string) (*runtime.ResolvedToolset, error) {
	if version == "" {
		return nil, registry.Errorf(registry.CodeInvalidRequest, "resolve toolset %q: no version to check", toolset)
	}
	return c.resolve(ctx, registry.ToolsetRef{Name: toolset, Version: version})
}

// resolve reads one toolset reference.
func (c *Client) resolve(ctx context.Context, ref registry.ToolsetRef) (*runtime.ResolvedToolset, error) {
	cat, err := c.consumer.ResolveToolsets(ctx, []registry.ToolsetRef{ref})
	if err != nil {
		return nil, err
	}
	if len(cat.Toolsets) != 1 {
		return nil, fmt.Errorf("resolve toolset %q: %w: %d toolsets answered", ref.Name, registry.ErrBadResponse, len(cat.Toolsets))
	}
	if ref.Version != "" && cat.Toolsets[0].Toolset.Version != ref.Version {
		return nil, fmt.Errorf("resolve toolset %q: %w: answered version %q, pinned %q", ref.Name, registry.ErrBadResponse, cat.Toolsets[0].Toolset.Version, ref.Version)
	}
	out := convert(cat.Toolsets[0], cat.Generation)
	return &out, nil
}

// ResolveToolsets reads the named toolsets in one read of the registry,
// all or none, in the order of refs; the registry checks pinned versions.
// Every answer carries the read's generation.
func (c *Client) ResolveToolsets(ctx context.Context, refs []runtime.ToolsetRef) ([]runtime.ResolvedToolset, error) {
	req := make([]registry.ToolsetRef, len(refs))
	for i, r := range refs {
		req[i] = registry.ToolsetRef{Name: r.Name, Version: r.Version}
	}
	cat, err := c.consumer.ResolveToolsets(ctx, req)
	if err != nil {
		return nil, err
	}
	if len(cat.Toolsets) != len(refs) {
		return nil, fmt.Errorf("resolve %d toolsets: %w: %d toolsets answered", len(refs), registry.ErrBadResponse, len(cat.Toolsets))
	}
	out := make([]runtime.ResolvedToolset, len(refs))
	for i, ts := range cat.Toolsets {
		if ts.Toolset.Name != refs[i].Name || (refs[i].Version != "" && ts.Toolset.Version != refs[i].Version) {
			return nil, fmt.Errorf("resolve toolset %q: %w: answered %q version %q", refs[i].Name, registry.ErrBadResponse, ts.Toolset.Name, ts.Toolset.Version)
		}
		out[i] = convert(ts, cat.Generation)
	}
	return out, nil
}

// ListToolsets reads every registered toolset; an empty registry is an
// empty list.
func (c *Client) ListToolsets(ctx context.Context) ([]runtime.ResolvedToolset, error) {
	cat, err := c.consumer.ListToolsets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]runtime.ResolvedToolset, len(cat.Toolsets))
	for i, ts := range cat.Toolsets {
		out[i] = convert(ts, cat.Generation)
	}
	return out, nil
}

// CallTool forwards an accepted call under its token and returns the tool's
// JSON result ("null" when the tool returns none). A tool that ran and
// failed is an error matching ErrToolFailed; registry refusals keep their
// registry error (registry.ErrCallNotAdmitted,
// registry.ErrAdmissionConflict, registry.ErrOverloaded, ...).
func (c *Client) CallTool(ctx context.Context, call *runtime.RegistryCall) (json.RawMessage, error) {
	res, err := c.consumer.CallResolvedTool(ctx, &registry.CallRequest{
		CallID:  CallID(call.RunID, call.Step, call.CallID),
		Tool:    call.Tool,
		Token:   registry.Token(call.Token),
		Payload: call.Arguments,
	})
	if err != nil {
		return nil, err
	}
	if res.ToolError != "" {
		return nil, fmt.Errorf("%w: %s", ErrToolFailed, res.ToolError)
	}
	if len(res.Result) == 0 {
		return json.RawMessage("null"), nil
	}
	return res.Result, nil
}

// CallID is the registry call ID of a run's call: the run ID, the planning
// step that admitted the call and the model's call ID, the run ID
// length-prefixed so that no two triples give one ID ("4:run1/2/call_1"), or
// a digest of them ("h:" and 64 hex digits) when that would not be a valid
// registry call ID (longer than registry.MaxLabelLength or not visible
// ASCII). The two forms never collide: the first starts with a digit. The
// step is part of the ID because a model may reuse a call ID in a later
// step, and that call is a new one, not a retry.
func CallID(runID string, step int, callID string) string {
	id := strconv.Itoa(len(runID)) + ":" + runID + "/" + strconv.Itoa(step) + "/" + callID
	if len(id) <= registry.MaxLabelLength && visibleASCII(id) {
		return id
	}
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(len(runID)) + ":"))
	h.Write([]byte(runID))
	h.Write([]byte("/" + strconv.Itoa(step) + "/"))
	h.Write([]byte(callID))
	return "h:" + hex.EncodeToString(h.Sum(nil))
}

func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

func convert(ts registry.ResolvedToolset, generation uint64) runtime.ResolvedToolset {
	return runtime.ResolvedToolset{Schema: ts.Toolset, Fingerprint: ts.Fingerprint, Token: string(ts.Token), Generation: generation}
}
