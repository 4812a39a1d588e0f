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
)

// ErrToolFailed is matched by the error CallTool returns when the tool ran
// and reported its own failure; the error's text is the tool's message.
var ErrToolFailed = errors.New("tool failed")

// New returns a runtime registry client reading and calling through c.
func New(c registry.Consumer) *Client { return &Client{consumer: c} }

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
	out := convert(cat.Toolsets[0])
	return &out, nil
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
		out[i] = convert(ts)
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
		CallID:  CallID(call.RunID, call.CallID),
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

// CallID is the registry call ID of a run's call: the run ID and the
// model's call ID, length-prefixed so that no two pairs give one ID, or a
// digest of them ("h:" and 64 hex digits) when that would not be a valid
// registry call ID (longer than registry.MaxLabelLength or not visible
// ASCII). The two forms never collide: the first starts with a digit.
func CallID(runID, callID string) string {
	id := strconv.Itoa(len(runID)) + ":" + runID + "/" + callID
	if len(id) <= registry.MaxLabelLength && visibleASCII(id) {
		return id
	}
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(len(runID)) + ":"))
	h.Write([]byte(runID))
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

func convert(ts registry.ResolvedToolset) runtime.ResolvedToolset {
	return runtime.ResolvedToolset{Schema: ts.Toolset, Fingerprint: ts.Fingerprint, Token: string(ts.Token)}
}
