package redisstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Scripts that a node's calls send while Redis is busy with an earlier one
// wait together and go out in one round trip, so that Redis reads them in
// one turn of its event loop (and, with appendfsync always, syncs them
// once): here Redis is paused while the calls are made, and the calls take
// far fewer round trips than calls. Each call keeps its own answer, fence
// and rules.
func TestConcurrentCallsShareRoundTrips(t *testing.T) {
	// A Redis of its own: the pause would hold every test sharing one.
	_, url := startRedis(t)
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { _ = rdb.Close() })
	name := uniqueName(t)
	ctx := context.Background()
	counted := redis.NewClient(opt)
	t.Cleanup(func() { _ = counted.Close() })
	trips := newRoundTrips()
	counted.AddHook(trips)
	st, err := redisstore.New(counted, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	admit := func(id string) (bool, uint64, error) {
		rec := &service.CallRecord{CallID: id, Tool: tools.Ident("a.get"), Token: "t1", PayloadDigest: "d", AdmittedAt: epoch}
		_, isNew, fence, err := st.AdmitAndHandOver(ctx, rec, "node", time.Minute)
		return isNew, fence, err
	}
	if _, _, err := admit("warm"); err != nil { // loads the script
		t.Fatal(err)
	}
	const calls = 12
	// Redis holds every client's commands for the pause; the calls are
	// made meanwhile.
	if err := rdb.Do(ctx, "client", "pause", 500, "all").Err(); err != nil {
		t.Fatal(err)
	}
	trips.take()
	var wg sync.WaitGroup
	fences := make([]uint64, calls)
	errs := make([]error, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			isNew, fence, err := admit(fmt.Sprintf("c%d", i))
			if err == nil && !isNew {
				err = fmt.Errorf("call c%d: not a new admission", i)
			}
			fences[i], errs[i] = fence, err
		}()
	}
	wg.Wait()
	n, _ := trips.take()
	seen := map[uint64]bool{}
	for i := range calls {
		if errs[i] != nil || fences[i] == 0 || seen[fences[i]] {
			t.Fatalf("call c%d: fence %d, %v; want a new admission with a fence of its own (fences %v)", i, fences[i], errs[i], fences)
		}
		seen[fences[i]] = true
	}
	total := 0
	for _, c := range n {
		total += c
	}
	if total > calls/2 {
		t.Fatalf("%d concurrent calls made %d round trips %v; want their scripts sent together", calls, total, n)
	}
	// Replaying an admission gets the record, not a second claim.
	if isNew, fence, err := admit("c0"); err != nil || isNew || fence != 0 {
		t.Fatalf("second admission of c0 = %v, %d, %v; want the record only", isNew, fence, err)
	}
}
