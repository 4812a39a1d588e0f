package service

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// StoredCalls returns how many call records the journal in dir holds, read
// from the file.
func StoredCalls(dir string) (int, error) {
	data, err := os.ReadFile(filepath.Join(dir, callsJournal))
	if err != nil {
		return 0, err
	}
	j := &journal{path: callsJournal, live: make(map[string][]byte)}
	if _, err := j.replay(data); err != nil {
		return 0, err
	}
	return len(j.live), nil
}

// NewMemoryStore returns the embedded store, in memory only, for services
// sharing one store.
func NewMemoryStore() Store {
	st, err := openEmbeddedStore("")
	if err != nil {
		panic(err)
	}
	return st
}

// FillStore makes every later write of the embedded store svc opened fail
// for want of space, as a disk that filled, until svc is closed.
func FillStore(svc *Service) {
	j := svc.own.disk.calls
	j.mu.Lock()
	defer j.mu.Unlock()
	j.broken = storageError("write journal", syscall.ENOSPC)
}

// WithClaimRenewal renews the claims of the calls the service forwards
// every d instead of every second.
func WithClaimRenewal(d time.Duration) Option {
	return func(o *options) { o.claimRenew = d }
}

// OpenAttemptStore opens the embedded store in dir ("": in memory) with
// the registration of toolset "a" under token "t1", and returns it with a
// function that makes a call's current claim lapse, as its expiry does.
func OpenAttemptStore(t *testing.T, dir string) (Store, func(callID string)) {
	st := openAttemptStore(t, dir)
	return st, st.lapse
}
