package embeddedstore

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/registry/service/store"
)

// FuzzStoredRecord decodes arbitrary bytes as the store's records, the way
// a restarted registry reads its data directory: no panic, and a record
// accepted re-encodes to bytes that decode to the same record, so nothing
// read from the store changes on its way back.
func FuzzStoredRecord(f *testing.F) {
	f.Add([]byte(`{"registration":{"toolset":{"name":"a","tools":[]},"fingerprint":"f","revision":"r","token":"t","endpoint":"http://h"}}`))
	f.Add([]byte(`{"call_id":"c","tool":"a.b","token":"t","payload_digest":"d","revision":"r","endpoint":"http://h","admitted_at":"2026-01-02T03:04:05Z"}`))
	f.Add([]byte(`{"call_id":"c","tool":"a.b","token":"t","payload_digest":"d","revision":"r","endpoint":"http://h","admitted_at":"2026-01-02T03:04:05Z","handed_over":7}`))
	f.Add([]byte(`{"call_id":"c","Call_ID":"d"}`))
	f.Add([]byte(`{"generation":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, newRecord := range []func() any{
			func() any { return new(storedToolset) },
			func() any { return new(store.CallRecord) },
			func() any { return new(journalCall) },
			func() any { return new(generationDoc) },
		} {
			rec := newRecord()
			if strictjson.Decode(data, rec) != nil {
				continue
			}
			again, err := json.Marshal(rec)
			if err != nil {
				continue // a record the store could not have written
			}
			back := newRecord()
			if err := strictjson.Decode(again, back); err != nil {
				t.Fatalf("re-encoded record %s does not decode: %v", again, err)
			}
			b, _ := json.Marshal(back)
			if !reflect.DeepEqual(b, again) {
				t.Fatalf("round trip changed the record:\n%s\n%s", again, b)
			}
		}
	})
}
