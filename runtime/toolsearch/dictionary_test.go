package toolsearch

import (
	"strconv"
	"testing"
)

func TestDictionary(t *testing.T) {
	d := newDictionary(0)
	const n = 1000 // past the initial table, so it grows several times
	for i := range n {
		key := "k" + strconv.Itoa(i)
		id, added := d.add(key)
		if !added || id != int32(i) {
			t.Fatalf("add(%q) = %d, %v; want %d, true", key, id, added, i)
		}
	}
	for i := range n {
		key := "k" + strconv.Itoa(i)
		if id, added := d.add(key); added || id != int32(i) {
			t.Errorf("add(%q) again = %d, %v; want %d, false", key, id, added, i)
		}
		if id, ok := d.lookup([]byte(key)); !ok || id != int32(i) {
			t.Errorf("lookup(%q) = %d, %v", key, id, ok)
		}
		if id, ok := d.lookupString(key); !ok || id != int32(i) {
			t.Errorf("lookupString(%q) = %d, %v", key, id, ok)
		}
	}
	for _, key := range []string{"", "k", "k1000", "K1"} {
		if _, ok := d.lookupString(key); ok {
			t.Errorf("lookupString(%q) found a key never added", key)
		}
	}
	if d.len() != n {
		t.Errorf("len = %d, want %d", d.len(), n)
	}
}
