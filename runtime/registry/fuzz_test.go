package registry

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecodeCatalog feeds arbitrary answers to the client's catalog
// decoder: no panic, every refusal is ErrBadResponse, and an accepted
// catalog holds only records whose fingerprint and token check out, sorted
// and distinct, and re-encodes to an answer that decodes to the same
// catalog.
func FuzzDecodeCatalog(f *testing.F) {
	good, _ := json.Marshal(Catalog{Generation: 3, Toolsets: []ResolvedToolset{resolvedRecords(f, "r1")}})
	f.Add(good)
	f.Add([]byte(`{"generation":1,"toolsets":[]}`))
	f.Add([]byte(`{"generation":1,"Generation":2,"toolsets":[]}`))
	f.Add([]byte(`{"generation":1,"toolsets":[{"toolset":{"name":"a","tools":[]},"fingerprint":"","revision":"r","token":"t","Token":"u"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v verifiedSet
		cat, err := v.decodeCatalog(data, nil)
		if err != nil {
			if !errors.Is(err, ErrBadResponse) {
				t.Fatalf("refusal %v is not ErrBadResponse", err)
			}
			return
		}
		for _, ts := range cat.Toolsets {
			if err := checkResolved(ts); err != nil {
				t.Fatalf("accepted a toolset that fails its checks: %v", err)
			}
		}
		again, err := json.Marshal(cat)
		if err != nil {
			t.Fatalf("accepted catalog does not encode: %v", err)
		}
		var fresh verifiedSet
		back, err := fresh.decodeCatalog(again, nil)
		if err != nil {
			t.Fatalf("re-encoded catalog %s does not decode: %v", again, err)
		}
		if !reflect.DeepEqual(back, cat) {
			t.Fatalf("round trip changed the catalog:\n%+v\n%+v", cat, back)
		}
	})
}
