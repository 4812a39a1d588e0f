package redisstore_test

// A Redis that forgets: registry nodes on a redis-server that loses
// acknowledged changes mid-storm (restarted empty without persistence
// here; a Sentinel failover to a replica that lacked them in the redisha
// suite). The nodes notice, drop their cache and read Redis again: once
// Redis answers again, publishes succeed (none runs into its deadline),
// calls run, every node serves what Redis holds and /readyz says how
// often the node found its store had lost changes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// forgetPublishTimeout bounds each publish of the storm: a publish that
// never ends (a node retrying a change against a catalog Redis no longer
// holds) fails with its context's deadline, which the test refuses.
const forgetPublishTimeout = 5 * time.Second

// forgetStorm is a run of clients against nodes whose Redis loses
// changes, and what they saw.
type forgetStorm struct {
	t        *testing.T
	nodes    []string
	busy     []*atomic.Int64 // by node, the requests it serves now
	provider *provider
	ops      atomic.Int64
	deadline atomic.Int64 // Unix nanoseconds

	mu sync.Mutex
	// lost is when Redis answered again without changes it had
	// acknowledged; zero before.
	lost time.Time
	// attempts: the tokens of each toolset's publishes, in order; acked:
	// the last one acknowledged.
	attempts map[string][]registry.Token
	acked    map[string]registry.Token
	// pubsAfter and callsAfter count, by toolset, the publishes and calls
	// begun after lost and acknowledged; firstCallAfter is when the first
	// such call was acknowledged.
	pubsAfter      map[string]int
	callsAfter     map[string]int
	firstCallAfter time.Time
	errs           []error
}

func newForgetStorm(t *testing.T, nodes []string, busy []*atomic.Int64, p *provider) *forgetStorm {
	s := &forgetStorm{t: t, nodes: nodes, busy: busy, provider: p, attempts: make(map[string][]registry.Token),
		acked: make(map[string]registry.Token), pubsAfter: make(map[string]int), callsAfter: make(map[string]int)}
	s.deadline.Store(time.Now().Add(time.Minute).UnixNano())
	return s
}

// forgetNodes starts n registry nodes in this process on the stores that
// open returns, and returns their URLs and how many requests each serves
// now. A node still serving a request when the test ends is left running:
// the test has failed (see forgetStorm.verify).
func forgetNodes(t *testing.T, n int, open func() (*redisstore.Store, error)) ([]string, []*atomic.Int64) {
	t.Helper()
	var urls []string
	var busy []*atomic.Int64
	for range n {
		st, err := open()
		if err != nil {
			t.Fatal(err)
		}
		svc, err := service.New(service.WithStore(st), service.WithInsecure())
		if err != nil {
			t.Fatal(err)
		}
		serving := new(atomic.Int64)
		h := svc.Handler()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			serving.Add(1)
			defer serving.Add(-1)
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(func() {
			if serving.Load() == 0 {
				srv.Close()
				_ = svc.Close()
			}
			_ = st.Close()
		})
		urls, busy = append(urls, srv.URL), append(busy, serving)
	}
	return urls, busy
}

// run starts workers clients, and returns a channel closed when they end.
func (s *forgetStorm) run(workers int) <-chan struct{} {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { s.work(w) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}

// markLost records that Redis answers again without what it had, and
// ends the storm d later.
func (s *forgetStorm) markLost(d time.Duration) {
	s.mu.Lock()
	s.lost = time.Now()
	s.mu.Unlock()
	s.deadline.Store(time.Now().Add(d).UnixNano())
}

func (s *forgetStorm) lostAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// work is one client: it publishes its toolset under a new revision every
// fifth operation (and until one is acknowledged), resolves it and calls
// its tool under the token resolved.
func (s *forgetStorm) work(w int) {
	var others []string
	for j := 1; j < len(s.nodes); j++ {
		others = append(others, s.nodes[(w+j)%len(s.nodes)])
	}
	c, err := registry.NewClient(s.nodes[w%len(s.nodes)], registry.WithFailover(others...),
		registry.WithHTTPClient(&http.Client{Timeout: 20 * time.Second}))
	if err != nil {
		s.t.Error(err)
		return
	}
	name := fmt.Sprintf("f%d", w)
	ts := notesToolset(name, "1")
	var current registry.Token
	for i := 0; time.Now().UnixNano() < s.deadline.Load(); i++ {
		if i%5 == 0 || current == "" {
			rev := fmt.Sprintf("r%d", i)
			began := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), forgetPublishTimeout)
			res, err := c.Publish(ctx, &registry.PublishRequest{Toolset: ts, Revision: rev, Endpoint: s.provider.url})
			cancel()
			s.mu.Lock()
			if res != nil {
				s.attempts[name] = append(s.attempts[name], res.Registration.Token)
			}
			if err == nil {
				current, s.acked[name] = res.Registration.Token, res.Registration.Token
				if !s.lost.IsZero() && began.After(s.lost) {
					s.pubsAfter[name]++
				}
			}
			s.mu.Unlock()
			if !s.record(err) {
				continue
			}
		}
		began := time.Now()
		cat, err := c.ResolveToolsets(context.Background(), []registry.ToolsetRef{{Name: name}})
		if !s.record(err) {
			current = ""
			continue
		}
		current = cat.Toolsets[0].Token
		_, err = c.CallResolvedTool(context.Background(), get(fmt.Sprintf("%s-%d", name, i), name, current, fmt.Sprint(i)))
		if s.record(err) {
			s.mu.Lock()
			if !s.lost.IsZero() && began.After(s.lost) {
				s.callsAfter[name]++
				if s.firstCallAfter.IsZero() {
					s.firstCallAfter = time.Now()
				}
			}
			s.mu.Unlock()
		}
		s.ops.Add(1)
	}
}

// record keeps a failure, pausing the client a little, and reports
// whether err is nil.
func (s *forgetStorm) record(err error) bool {
	if err == nil {
		return true
	}
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.mu.Unlock()
	time.Sleep(10 * time.Millisecond)
	return false
}

// waitOps waits until the storm has made n operations.
func (s *forgetStorm) waitOps(n int64, done <-chan struct{}) {
	for s.ops.Load() < n {
		select {
		case <-done:
			s.t.Fatal("the storm ended early")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// verify checks, after the storm, what the clients saw and what the nodes
// serve against what Redis (read through st, which caches nothing) holds.
func (s *forgetStorm) verify(st *redisstore.Store) {
	t := s.t
	t.Helper()
	// Every client has gone: a request still served retries without end.
	for i, n := range s.busy {
		for deadline := time.Now().Add(10 * time.Second); n.Load() > 0; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("node %s still serves %d requests 10 s after every client ended", s.nodes[i], n.Load())
			}
		}
	}
	for _, err := range s.errs {
		var e *registry.Error
		if !errors.As(err, &e) {
			t.Errorf("a client saw %v; want a registry error (a publish that never ends runs into its %v deadline)", err, forgetPublishTimeout)
			continue
		}
		switch e.Code {
		case registry.CodeOverloaded, registry.CodeCallOutcomeUnknown:
			// Redis unreachable; a call whose result it could not record.
		case registry.CodeCallNotAdmitted, registry.CodeToolsetNotFound:
			// Registrations that Redis lost.
		default:
			t.Errorf("a client saw %v", err)
		}
	}
	for name := range s.attempts {
		if s.pubsAfter[name] == 0 || s.callsAfter[name] == 0 {
			t.Errorf("toolset %s: %d publishes and %d calls acknowledged after Redis lost its data; want some of each", name, s.pubsAfter[name], s.callsAfter[name])
		}
	}
	_, regs, err := st.Registrations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	inRedis := make(map[string]registry.Token)
	for _, r := range regs {
		inRedis[r.Toolset.Name] = r.Token
	}
	for name, tok := range s.acked {
		if got := slices.Index(s.attempts[name], inRedis[name]); got < slices.Index(s.attempts[name], tok) {
			t.Errorf("toolset %s: Redis holds token %q, older than the last acknowledged %s", name, inRedis[name], tok)
		}
	}
	for _, node := range s.nodes {
		c, err := registry.NewClient(node)
		if err != nil {
			t.Fatal(err)
		}
		cat, err := c.ListToolsets(context.Background())
		if err != nil {
			t.Fatalf("node %s: list: %v", node, err)
		}
		served := make(map[string]registry.Token)
		for _, r := range cat.Toolsets {
			served[r.Toolset.Name] = r.Token
		}
		if !maps.Equal(served, inRedis) {
			t.Errorf("node %s serves %v; Redis holds %v", node, served, inRedis)
		}
		if n := readyResets(t, node); n < 1 {
			t.Errorf("node %s: /readyz says the store lost changes %d times; want at least 1", node, n)
		}
	}
}

// readyResets returns the store_resets that node's /readyz answers, which
// must be ready.
func readyResets(t *testing.T, node string) int {
	t.Helper()
	resp, err := http.Get(node + service.PathReadyz)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var ready struct {
		Status      string `json:"status"`
		StoreResets *int   `json:"store_resets"`
	}
	if err := json.Unmarshal(body, &ready); err != nil || resp.StatusCode != http.StatusOK || ready.StoreResets == nil {
		t.Errorf("node %s: /readyz answered %d %s; want 200 with store_resets", node, resp.StatusCode, body)
		return 0
	}
	return *ready.StoreResets
}

// forgotten runs prepare (when set), writes a key to the Redis at url,
// runs lose, which returns the URL of the Redis in its place, and fails
// the test unless that Redis lacks the key.
func forgotten(t *testing.T, url string, prepare func(), lose func() string) {
	t.Helper()
	if prepare != nil {
		prepare()
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	mark := "goa-discovery-test:" + uniqueName(t)
	rdb := redis.NewClient(opt)
	if err := rdb.Set(context.Background(), mark, "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	_ = rdb.Close()
	if opt, err = redis.ParseURL(lose()); err != nil {
		t.Fatal(err)
	}
	rdb = redis.NewClient(opt)
	defer rdb.Close()
	if n, err := rdb.Exists(context.Background(), mark).Result(); err != nil || n != 0 {
		t.Fatalf("Redis kept a key written before it went down (%d, %v); want it to have lost it", n, err)
	}
}

// Redis without persistence, SIGKILLed mid-storm and started again empty:
// see the file comment.
func TestFaultRedisRestartedEmptyMidStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("the cluster fault suite runs Redis processes")
	}
	rp, url := startRedisWith(t, "--appendonly", "no")
	name := uniqueName(t)
	nodes, busy := forgetNodes(t, 2, func() (*redisstore.Store, error) {
		return redisstore.Open(context.Background(), url+"?max_retries=-1&dial_timeout=200ms", name)
	})
	s := newForgetStorm(t, nodes, busy, newProvider(t))
	done := s.run(4)
	check, err := redisstore.Open(context.Background(), url, name, redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	s.waitOps(40, done)
	forgotten(t, url, nil, func() string { rp.kill(); rp.run(); return url })
	s.markLost(6 * time.Second)
	<-done
	t.Logf("%d operations; %d requests failed; Redis restarted empty after %v", s.ops.Load(), len(s.errs), s.lostAt())
	s.verify(check)
}
