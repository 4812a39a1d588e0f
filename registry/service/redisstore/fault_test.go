package redisstore_test

// The cluster fault suite: three registry nodes (child processes) on one
// real redis-server take a storm of publishes, resolutions and calls from
// concurrent clients, each given every node's URL, while a node or Redis
// itself is killed with SIGKILL and started again. Each storm is bounded in
// operations and time and runs on loopback only.
//
// What the ledger checks afterwards, through every node: each toolset's
// registration is the last publish its client saw acknowledged (or a later
// one whose answer was lost); no resolution answered a token older than
// one already acknowledged (no stale catalog); every acknowledged call,
// sent again, returns the result recorded first without running again; and
// the provider ran no call twice.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// storm is a run of concurrent clients against the nodes, and its ledger.
type storm struct {
	t        *testing.T
	nodes    []string
	provider *provider
	// retries is how often a client retries a call that failed retryably.
	retries int

	ops atomic.Int64
	// halt: the workers stop before their next operation.
	halt atomic.Bool

	mu sync.Mutex
	// attempts: per toolset, the tokens of its publishes in order, and
	// their revisions; acked: the index of the last acknowledged one.
	attempts map[string][]registry.Token
	revs     map[string][]string
	acked    map[string]int
	ackedAt  map[string]time.Time
	// replaced counts the calls not admitted because a later publish of
	// their toolset had replaced the token they carried ([storm.replacedUnseen]).
	replaced atomic.Int64
	// results: acknowledged calls by ID.
	results map[string]*registry.CallResult
	calls   map[string]*registry.CallRequest
	errs    []error
	stale   []string
	clients map[int]*registry.Client // by worker
}

func newStorm(t *testing.T, nodes []string, p *provider, retries int) *storm {
	return &storm{t: t, nodes: nodes, provider: p, retries: retries,
		attempts: make(map[string][]registry.Token), revs: make(map[string][]string),
		acked: make(map[string]int), ackedAt: make(map[string]time.Time),
		results: make(map[string]*registry.CallResult), calls: make(map[string]*registry.CallRequest),
		clients: make(map[int]*registry.Client)}
}

// client returns a client of node i that fails over to the others.
func (s *storm) client(i int) *registry.Client {
	s.t.Helper()
	var others []string
	for j := 1; j < len(s.nodes); j++ {
		others = append(others, s.nodes[(i+j)%len(s.nodes)])
	}
	c, err := registry.NewClient(s.nodes[i%len(s.nodes)], registry.WithFailover(others...),
		registry.WithHTTPClient(&http.Client{Timeout: 20 * time.Second}),
		registry.WithCallRetries(s.retries, 50*time.Millisecond))
	if err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	s.clients[i] = c
	s.mu.Unlock()
	return c
}

// run runs workers clients of maxOps operations each, stopping at deadline.
func (s *storm) run(workers, maxOps int, deadline time.Time) *sync.WaitGroup {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(w, maxOps, deadline)
		}()
	}
	return &wg
}

// work is one client: it publishes its toolset under a new revision every
// fifth operation, resolves it and calls its tool, under the token
// resolved, on every one.
func (s *storm) work(w, maxOps int, deadline time.Time) {
	ctx := context.Background()
	c := s.client(w)
	name := fmt.Sprintf("w%d", w)
	ts := notesToolset(name, "1")
	fp, err := tools.ToolsetFingerprint(&ts)
	if err != nil {
		s.t.Error(err)
		return
	}
	var current registry.Token
	for i := 0; i < maxOps && time.Now().Before(deadline) && !s.halt.Load(); i++ {
		if i%5 == 0 {
			rev := fmt.Sprintf("r%d", i)
			s.mu.Lock()
			s.attempts[name] = append(s.attempts[name], registry.NewToken(fp, rev))
			s.revs[name] = append(s.revs[name], rev)
			idx := len(s.attempts[name]) - 1
			s.mu.Unlock()
			res, err := c.Publish(ctx, &registry.PublishRequest{Toolset: ts, Revision: rev, Endpoint: s.provider.url})
			s.mu.Lock()
			if err == nil {
				s.acked[name], s.ackedAt[name] = idx, time.Now()
				current = res.Registration.Token
			}
			s.mu.Unlock()
			s.record(err)
		}
		if current == "" {
			continue
		}
		// A consumer calls under the token it resolved: a publish whose
		// answer was lost may have replaced the one this client last saw
		// acknowledged, and a node may answer an acknowledged publish's
		// predecessor within the staleness bound.
		began := time.Now()
		cat, err := c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: name}})
		if s.record(err) {
			current = cat.Toolsets[0].Token
			s.checkFresh(name, current, began)
		}
		call := get(fmt.Sprintf("%s-%d", name, i), name, current, fmt.Sprint(i))
		res, err := c.CallResolvedTool(ctx, call)
		if s.replacedUnseen(name, current, err) {
			s.replaced.Add(1)
		} else if s.record(err) {
			s.mu.Lock()
			s.results[call.CallID], s.calls[call.CallID] = res, call
			s.mu.Unlock()
		}
		s.ops.Add(1)
	}
}

// record keeps a failure and reports whether err is nil.
func (s *storm) record(err error) bool {
	if err == nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, err)
	return false
}

// replacedUnseen reports whether err is a call of toolset under token
// not admitted because a later publish of the toolset replaced it, and the
// error names that publish's revision: a publish whose answer the client
// lost, or one acknowledged that the resolution the client made since did
// not answer yet (a node that did not make the publish may answer from its
// cache within the store's staleness bound; checkFresh records a
// resolution beyond it).
func (s *storm) replacedUnseen(toolset string, token registry.Token, err error) bool {
	if !errors.Is(err, registry.ErrCallNotAdmitted) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	idx := slices.Index(s.attempts[toolset], token)
	if idx < 0 {
		return false
	}
	for _, rev := range s.revs[toolset][idx+1:] {
		if strings.Contains(err.Error(), fmt.Sprintf("(revision %q)", rev)) {
			return true
		}
	}
	return false
}

// TestReplacedUnseen checks which refusals of a call the storm counts as
// true answers: a call under a token that a later publish of the toolset
// replaced, its answer lost or acknowledged, when the refusal names that
// publish's revision; nothing else.
func TestReplacedUnseen(t *testing.T) {
	fp := tools.Fingerprint("fp")
	s := newStorm(t, nil, nil, 0)
	for _, rev := range []string{"r0", "r5", "r10"} {
		s.attempts["w0"] = append(s.attempts["w0"], registry.NewToken(fp, rev))
		s.revs["w0"] = append(s.revs["w0"], rev)
	}
	refused := func(rev string) error {
		return registry.Errorf(registry.CodeCallNotAdmitted, "call %q: token t is not the current registration of toolset %q (revision %q); resolve the toolset again", "w0-1", "w0", rev)
	}
	for _, c := range []struct {
		name  string
		token registry.Token
		err   error
		want  bool
	}{
		{"a later publish named", registry.NewToken(fp, "r0"), refused("r10"), true},
		{"the next publish named", registry.NewToken(fp, "r5"), refused("r10"), true},
		{"the token's own revision named", registry.NewToken(fp, "r10"), refused("r10"), false},
		{"an earlier revision named", registry.NewToken(fp, "r5"), refused("r0"), false},
		{"a revision never published", registry.NewToken(fp, "r0"), refused("r15"), false},
		{"a token never published", registry.NewToken(fp, "r99"), refused("r10"), false},
		{"another error", registry.NewToken(fp, "r0"), registry.Errorf(registry.CodeOverloaded, "(revision %q)", "r10"), false},
		{"no error", registry.NewToken(fp, "r0"), nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := s.replacedUnseen("w0", c.token, c.err); got != c.want {
				t.Errorf("replacedUnseen(%v) = %v, want %v", c.err, got, c.want)
			}
		})
	}
}

// checkFresh records a resolution of toolset, begun at began, that
// answered a token older than the last publish acknowledged more than the
// store's staleness bound before (redisstore.WithMaxStaleness): a node
// that did not make the publish may answer from its cache until then.
func (s *storm) checkFresh(toolset string, token registry.Token, began time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if began.Sub(s.ackedAt[toolset]) <= redisstore.DefaultMaxStaleness {
		return
	}
	if idx := slices.Index(s.attempts[toolset], token); idx < s.acked[toolset] {
		s.stale = append(s.stale, fmt.Sprintf("%s: resolved token %s (publish %d) after publish %d was acknowledged", toolset, token, idx, s.acked[toolset]))
	}
}

// waitOps waits until the storm has made n operations, or its workers
// ended.
func (s *storm) waitOps(n int64, done <-chan struct{}) {
	for s.ops.Load() < n {
		select {
		case <-done:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// verify checks the ledger through every node; see the file comment.
func (s *storm) verify() {
	t := s.t
	t.Helper()
	ctx := context.Background()
	for _, stale := range s.stale {
		t.Error(stale)
	}
	before := s.provider.total.Load()
	for _, node := range s.nodes {
		c, err := registry.NewClient(node)
		if err != nil {
			t.Fatal(err)
		}
		for name, idx := range s.acked {
			cat, err := c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: name}})
			if err != nil {
				t.Fatalf("node %s: resolve %s: %v", node, name, err)
			}
			if got := slices.Index(s.attempts[name], cat.Toolsets[0].Token); got < idx {
				t.Errorf("node %s: toolset %s has publish %d, want at least the acknowledged %d", node, name, got, idx)
			}
		}
		for id, want := range s.results {
			got, err := c.CallResolvedTool(ctx, s.calls[id])
			if err != nil {
				t.Fatalf("node %s: acknowledged call %s again: %v", node, id, err)
			}
			if string(got.Result) != string(want.Result) || !got.CompletedAt.Equal(want.CompletedAt) {
				t.Errorf("node %s: call %s answered %s at %v, first %s at %v", node, id, got.Result, got.CompletedAt, want.Result, want.CompletedAt)
			}
		}
	}
	if n := s.provider.total.Load(); n != before {
		t.Errorf("sending acknowledged calls again ran %d of them", n-before)
	}
	if len(s.results) == 0 {
		t.Fatal("the storm acknowledged no call")
	}
	if again := s.reran(); len(again) > 0 {
		t.Errorf("the provider ran %d calls more than once: %v", len(again), again)
	}
}

// reran returns the calls the provider ran more than once.
func (s *storm) reran() []string {
	s.provider.mu.Lock()
	defer s.provider.mu.Unlock()
	var out []string
	for id, n := range s.provider.ran {
		if n > 1 {
			out = append(out, id)
		}
	}
	return out
}

const (
	stormNodes   = 3
	stormWorkers = 6
	stormOps     = 150
	stormTime    = 8 * time.Second
)

// A node killed mid-storm: its clients fail over to the other nodes, no
// operation fails but a call the killed node had sent to the provider (its
// outcome is unknown: it is never sent again), every acknowledged write is
// there afterwards, through every node including the restarted one, and no
// call ran twice.
func TestFaultNodeKilledMidStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("the cluster fault suite runs registry and Redis processes")
	}
	_, url := startRedis(t)
	name := uniqueName(t)
	var nodes []*proc
	var urls []string
	for range stormNodes {
		p, u := startNode(t, url, name)
		nodes, urls = append(nodes, p), append(urls, u)
	}
	s := newStorm(t, urls, newProvider(t), 40)
	wg := s.run(stormWorkers, stormOps, time.Now().Add(stormTime))
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	s.waitOps(stormWorkers*stormOps/8, done)
	nodes[1].kill()
	killedAt := s.ops.Load()
	time.Sleep(300 * time.Millisecond)
	nodes[1].run()
	<-done
	t.Logf("%d operations, node killed after %d; %d calls acknowledged", s.ops.Load(), killedAt, len(s.results))
	if killedAt >= s.ops.Load() {
		t.Fatal("the storm ended before the kill; nothing was tested")
	}
	unknown := 0
	for _, err := range s.errs {
		if errors.Is(err, registry.ErrCallOutcomeUnknown) {
			unknown++ // sent by the killed node, which recorded no result
			continue
		}
		t.Errorf("with a node down, a client saw: %v", err)
	}
	// Each worker has one call in flight at a time.
	if unknown > stormWorkers {
		t.Errorf("%d calls have an unknown outcome, more than the %d that can be in flight at the kill", unknown, stormWorkers)
	}
	t.Logf("%d calls sent by the killed node have an unknown outcome", unknown)
	// Clients stay with the node that answered last: those that started
	// on the killed node and sent to it while it was down moved on.
	moved := 0
	for w, c := range s.clients {
		if w%len(urls) == 1 && c.Nodes()[0] != urls[1] {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no client failed over from the killed node")
	}
	s.verify()
}

// Redis killed mid-storm and started again: while it is down, requests
// fail with explicit, retryable errors naming the unreachable store; once
// it is back the storm goes on, and nothing acknowledged is lost. A call
// whose provider answered while Redis went down is told its outcome is
// unknown (its result could not be recorded). The one other answer a
// client may get is a true one: a call not admitted because its token was
// replaced by the client's own later publish, made though its answer was
// lost when Redis went down, or not yet seen by the node that answered the
// resolution (within the staleness bound).
func TestFaultRedisRestartedMidStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("the cluster fault suite runs registry and Redis processes")
	}
	rp, url := startRedis(t)
	name := uniqueName(t)
	var urls []string
	for range stormNodes {
		_, u := startNode(t, url, name)
		urls = append(urls, u)
	}
	s := newStorm(t, urls, newProvider(t), 0)
	wg := s.run(stormWorkers, stormOps, time.Now().Add(stormTime))
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	s.waitOps(stormWorkers*stormOps/8, done)
	rp.kill()
	time.Sleep(time.Second)
	rp.run()
	backAt := s.ops.Load()
	<-done
	t.Logf("%d operations, Redis back after %d; %d calls acknowledged, %d requests failed, %d calls not admitted under a token a later publish replaced",
		s.ops.Load(), backAt, len(s.results), len(s.errs), s.replaced.Load())
	if backAt >= s.ops.Load() {
		t.Fatal("the storm ended before Redis came back; nothing was tested")
	}
	if len(s.errs) == 0 {
		t.Fatal("no request failed while Redis was down")
	}
	for _, err := range s.errs {
		var e *registry.Error
		switch {
		case !errors.As(err, &e):
			t.Errorf("with Redis down, a request failed with %v; want a registry error", err)
		case e.Code == registry.CodeCallOutcomeUnknown:
			// The provider ran the call before Redis went; its result
			// could not be recorded, and the call is never sent again.
			if !strings.Contains(e.Message, "could not record its result") {
				t.Errorf("with Redis down, a call's outcome is unknown with %q; want it to say the result was not recorded", e.Message)
			}
		case e.Code != registry.CodeOverloaded || e.RetryAfter == 0 || !strings.Contains(e.Message, "store is unreachable"):
			t.Errorf("with Redis down, a request failed with %v; want overloaded naming the unreachable store, with a retry hint", err)
		}
	}
	s.verify()
}
