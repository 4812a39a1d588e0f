package redisstore_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// TestReadyWhileRedisFrozen: with a redis-server that stops answering
// (SIGSTOP), with the client options of a URL that sets none, a readiness
// check answers 503 store_unreachable once ReadyTimeout has passed, not
// after go-redis's own read timeout and retries (3 s each).
func TestReadyWhileRedisFrozen(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a redis-server")
	}
	rp, url := startRedis(t)
	st, err := redisstore.Open(context.Background(), url, uniqueName(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := service.New(service.WithStore(st), service.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()

	rp.signal(syscall.SIGSTOP)
	defer rp.signal(syscall.SIGCONT)
	time.Sleep(2 * redisstore.DefaultMaxStaleness) // the watch no longer answers for Redis
	began := time.Now()
	resp, err := http.Get(srv.URL + service.PathReadyz)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	took := time.Since(began)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("readyz with Redis frozen: %d; want 503", resp.StatusCode)
	}
	// Bounded by ReadyTimeout; the slack is the machine's, below the 3 s
	// of a read timeout and its retries (5 s with go-redis's defaults).
	if took > service.ReadyTimeout+2*time.Second {
		t.Errorf("readyz with Redis frozen answered after %v; want within ReadyTimeout (%v)", took, service.ReadyTimeout)
	}
	var nr *service.NotReadyError
	if err := svc.Ready(context.Background()); !errors.As(err, &nr) || nr.Reason != service.ReasonStoreUnreachable {
		t.Errorf("Ready with Redis frozen: %v; want %s", err, service.ReasonStoreUnreachable)
	}
}
