package registry

// Failover across the nodes of one registry. A Client given several node
// URLs sends each request to the node that answered last; when that node
// cannot be reached (the connection fails or is cut before an answer), it
// sends the same request to the next node, and so on once round them all.
// An answer, error answers included, ends the round: a node that answered
// decided the request. Resending is safe because the registry's requests
// are idempotent: a publish of what is registered is unchanged, a call is
// admitted once by its ID and a retry gets its recorded result, reads
// change nothing. Only a withdrawal whose answer was lost after it took
// effect reports, when resent, that the toolset is no longer registered.

import (
	"fmt"
	"strings"
)

// WithFailover adds other nodes of the same registry. Each request goes to
// the node that answered last; when that node cannot be reached (the
// connection fails or is cut before an answer) the client sends the same
// request to the next node, in order after the base URL's, once round them
// all. Any answer, an error answer too, ends the round. Resending is safe
// because the registry's requests are idempotent; only a withdrawal whose
// answer was lost after it took effect reports, when resent, that the
// toolset is no longer registered.
func WithFailover(urls ...string) ClientOption {
	return func(c *Client) { c.extra = append(c.extra, urls...) }
}

// initNodes checks the failover URLs and lists every node, the base first.
func (c *Client) initNodes() error {
	c.nodes = []string{c.base}
	for _, u := range c.extra {
		if err := checkBaseURL(u); err != nil {
			return fmt.Errorf("registry client: failover URL: %w", err)
		}
		c.nodes = append(c.nodes, strings.TrimSuffix(u, "/"))
	}
	return nil
}

// Nodes returns the base URLs of the registry nodes the client sends to,
// the one that answered last first.
func (c *Client) Nodes() []string {
	start := int(c.node.Load())
	out := make([]string, 0, len(c.nodes))
	for i := range c.nodes {
		out = append(out, c.nodes[(start+i)%len(c.nodes)])
	}
	return out
}
