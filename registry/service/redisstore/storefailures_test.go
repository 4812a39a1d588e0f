package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// connectionCut is a test double for a Redis connection that breaks: a
// go-redis hook that fails the n-th command (a pipeline counts as one)
// after arming, either before Redis sees it or after Redis ran it, its
// answer lost, as when Redis is killed between its sync and its reply.
type connectionCut struct {
	mu     sync.Mutex
	armed  bool
	n      int
	after  bool
	seen   int
	failed string // the command that failed, once it has
}

func (h *connectionCut) arm(n int, after bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armed, h.n, h.after, h.seen, h.failed = true, n, after, 0, ""
}

// cut reports whether the command named now fails, and disarms the hook
// once it has failed one.
func (h *connectionCut) cut(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.armed {
		return false
	}
	if h.seen++; h.seen != h.n {
		return false
	}
	h.armed, h.failed = false, name
	return true
}

func (h *connectionCut) fired() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.failed
}

var errCut = &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}

func (h *connectionCut) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *connectionCut) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !h.cut(cmd.Name()) {
			return next(ctx, cmd)
		}
		if h.after {
			_ = next(ctx, cmd)
		}
		cmd.SetErr(errCut)
		return errCut
	}
}

func (h *connectionCut) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if !h.cut("pipeline") {
			return next(ctx, cmds)
		}
		if h.after {
			_ = next(ctx, cmds)
		}
		for _, cmd := range cmds {
			cmd.SetErr(errCut)
		}
		return errCut
	}
}

// wantUnreachable fails unless err is the explicit, retryable answer of a
// store that could not be reached.
func wantUnreachable(t *testing.T, what string, err error) {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeOverloaded || e.RetryAfter == 0 || !strings.Contains(e.Message, "store is unreachable") {
		t.Fatalf("%s: %v; want overloaded naming the unreachable store, with a retry hint", what, err)
	}
}

// Every Redis command of a call, cut in turn before Redis runs it and
// after (its answer lost): the call fails explicitly and retryably naming
// the store, never as not admitted (its token is current) nor otherwise,
// unless the cut one recorded the result the provider gave: the caller is
// then told the call ran and its result is held. The retry then gets the
// call's result, or, when the cut hid whether the call was handed to its
// provider, call_outcome_unknown. No call runs twice.
func TestCallWithTheConnectionCut(t *testing.T) {
	for _, after := range []bool{false, true} {
		t.Run(fmt.Sprintf("answer lost=%v", after), func(t *testing.T) {
			ctx := context.Background()
			_, rdb := newMini(t)
			cut := new(connectionCut)
			rdb.AddHook(cut)
			p := newProvider(t)
			// Every read asks Redis: the generation watch's own commands
			// would take the cuts meant for the call's.
			node := newNodeOf(t, rdb, "reg", []redisstore.Option{redisstore.WithMaxStaleness(0)})
			r := publish(t, node, p, "notes", "1.0.0", "r1")
			for n := 1; ; n++ {
				id := fmt.Sprintf("c%d", n)
				cut.arm(n, after)
				_, err := node.CallResolvedTool(ctx, get(id, "notes", r.Token, "x"))
				failed := cut.fired()
				if failed == "" {
					if err != nil {
						t.Fatalf("call %s with no cut: %v", id, err)
					}
					if n < 3 {
						t.Fatalf("a call made only %d Redis commands", n-1)
					}
					return
				}
				// The cut of the command that records the result the
				// provider gave leaves it held: the caller is told the call
				// ran, and the retry records it.
				held := errors.Is(err, registry.ErrCallOutcomeUnknown) && strings.Contains(err.Error(), "ran, but the registry could not record its result")
				if !held {
					wantUnreachable(t, fmt.Sprintf("call %s, command %d (%s) cut", id, n, failed), err)
				}
				res, err := node.CallResolvedTool(ctx, get(id, "notes", r.Token, "x"))
				t.Logf("command %d (%s) cut; the retry: %v", n, failed, err)
				switch {
				case held && err != nil:
					t.Fatalf("retry of call %s, whose result was held after command %d (%s) was cut: %v", id, n, failed, err)
				case errors.Is(err, registry.ErrCallOutcomeUnknown):
				case err != nil:
					t.Fatalf("retry of call %s after command %d (%s) was cut: %v", id, n, failed, err)
				case string(res.Result) != `{"text":"note x"}`:
					t.Fatalf("retry of call %s: result %s", id, res.Result)
				}
				if runs := p.executions(id); runs > 1 {
					t.Fatalf("call %s ran %d times after command %d (%s) was cut", id, runs, n, failed)
				}
			}
		})
	}
}

// A publish cut off from Redis, each of its commands in turn, before Redis
// runs it and after (its answer lost): it is acknowledged only when it was
// made, and fails explicitly, retryably, otherwise; a failed one may have
// been made. A call under the token it would replace is then not
// admitted, rightly, naming the revision that replaced it, and admitted
// when the publish was not made.
func TestPublishWithTheConnectionCut(t *testing.T) {
	ctx := context.Background()
	for _, after := range []bool{false, true} {
		for n := 1; ; n++ {
			_, rdb := newMini(t)
			cut := new(connectionCut)
			rdb.AddHook(cut)
			p := newProvider(t)
			node := newNode(t, rdb, "reg")
			r1 := publish(t, node, p, "notes", "1.0.0", "r1")
			cut.arm(n, after)
			_, perr := node.Publish(ctx, &registry.PublishRequest{Toolset: notesToolset("notes", "2.0.0"), Revision: "r2", Endpoint: p.url})
			failed := cut.fired()
			if failed == "" {
				if perr != nil {
					t.Fatalf("publish with no cut: %v", perr)
				}
				break
			}
			what := fmt.Sprintf("publish, command %d (%s) cut, answer lost=%v", n, failed, after)
			if perr != nil {
				wantUnreachable(t, what, perr)
			}
			cat, err := node.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
			if err != nil {
				t.Fatal(err)
			}
			made := cat.Toolsets[0].Revision == "r2"
			t.Logf("%s: the publish answered %v, made: %v", what, perr, made)
			if perr == nil && !made {
				t.Fatalf("%s: acknowledged, but not made", what)
			}
			_, err = node.CallResolvedTool(ctx, get(fmt.Sprintf("c%d", n), "notes", r1.Token, "x"))
			switch {
			case made && (!errors.Is(err, registry.ErrCallNotAdmitted) || !strings.Contains(err.Error(), `(revision "r2")`)):
				t.Fatalf("%s, made: a call under the replaced token: %v; want not admitted naming r2", what, err)
			case !made && err != nil:
				t.Fatalf("%s, not made: a call under the current token: %v", what, err)
			}
		}
	}
}
