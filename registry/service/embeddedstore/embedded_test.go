package embeddedstore

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGenerationWritesAreShared(t *testing.T) {
	var reserved atomic.Uint64
	var writes []uint64
	first, release := make(chan struct{}), make(chan struct{})
	failNext := false
	g := newGenerationSyncer(0, func(v uint64) error {
		writes = append(writes, v)
		if len(writes) == 1 {
			close(first)
			<-release
		}
		if failNext {
			failNext = false
			return errors.New("disk failed")
		}
		return nil
	})
	target := reserved.Load
	var wg sync.WaitGroup
	sync1 := func(v uint64) {
		defer wg.Done()
		if err := g.sync(v, target); err != nil {
			t.Error(err)
		}
	}
	reserved.Add(1)
	wg.Add(1)
	go sync1(1)
	<-first
	// Five changes reserve while the first write is in flight: one more
	// write covers them all.
	for v := uint64(2); v <= 6; v++ {
		reserved.Add(1)
		wg.Add(1)
		go sync1(v)
	}
	close(release)
	wg.Wait()
	if diff := cmp.Diff([]uint64{1, 6}, writes); diff != "" {
		t.Fatalf("generations written (-want +got):\n%s", diff)
	}
	// A failed write fails its writer, and a later change writes again.
	failNext = true
	reserved.Add(1)
	if err := g.sync(7, target); err == nil {
		t.Fatal("a failed write was reported durable")
	}
	reserved.Add(1)
	if err := g.sync(8, target); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]uint64{1, 6, 7, 8}, writes); diff != "" {
		t.Fatalf("generations written (-want +got):\n%s", diff)
	}
}
