package redisstore_test

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// TestStoreFindsLostChanges: a store's epoch moves when Redis lost changes
// it had read, each loss once, and the store that finds a lower generation
// replaces the identity, so that another store finds the loss too though
// its own generations do not show it. Stores that saw only healthy
// changes stay in their epoch.
func TestStoreFindsLostChanges(t *testing.T) {
	cases := []struct {
		name string
		// lose makes Redis lose what it had at generation 3.
		lose func(t *testing.T, m *miniredis.Miniredis)
	}{
		{"restarted empty", func(_ *testing.T, m *miniredis.Miniredis) { m.FlushAll() }},
		{"failed over to generation 2", func(t *testing.T, m *miniredis.Miniredis) {
			if err := m.Set("goa-discovery:{reg}:gen", "2"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			m, rdb := newMini(t)
			open := func() *redisstore.Store {
				st, err := redisstore.New(rdb, "reg", redisstore.WithMaxStaleness(0))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = st.Close() })
				return st
			}
			a, b := open(), open()
			generation := func(st *redisstore.Store) uint64 {
				t.Helper()
				g, err := st.Generation(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			setGen := func(g string) {
				if err := m.Set("goa-discovery:{reg}:gen", g); err != nil {
					t.Fatal(err)
				}
			}
			setGen("1")
			generation(a)
			generation(b)
			setGen("3")
			generation(a)
			if a.Epoch() != 0 || b.Epoch() != 0 {
				t.Fatalf("epochs %d, %d before any loss; want 0", a.Epoch(), b.Epoch())
			}
			tc.lose(t, m)
			generation(a)
			if a.Epoch() != 1 {
				t.Errorf("the store that read generation 3: epoch %d after the loss; want 1", a.Epoch())
			}
			generation(a)
			if a.Epoch() != 1 {
				t.Errorf("the store that read generation 3: epoch %d on reading again; want 1", a.Epoch())
			}
			// Generation 2 is above all b read: b finds the loss by the
			// identity a replaced.
			generation(b)
			if b.Epoch() != 1 {
				t.Errorf("the store that read generation 1: epoch %d after the loss; want 1", b.Epoch())
			}
			// Changes made since are healthy ones.
			setGen("7")
			generation(a)
			generation(b)
			if a.Epoch() != 1 || b.Epoch() != 1 {
				t.Errorf("epochs %d, %d after healthy changes; want 1", a.Epoch(), b.Epoch())
			}
		})
	}
}
