package service_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// deepPublishBody is a publish of toolset name of about 4.1 MB: 415 tools
// whose payload schemas are valid object schemas nested 990 levels deep,
// within encoding/json's nesting limit, so that every decoder reads them
// whole; the schema limits (32 levels) refuse it.
func deepPublishBody(name string) string {
	const tools, depth = 415, 988
	schema := `{"type":"object","properties":{"a":` + strings.Repeat(`{"items":`, depth) + `{}` + strings.Repeat(`}`, depth) + `}}`
	var b strings.Builder
	b.WriteString(`{"toolset":{"name":"` + name + `","tools":[`)
	for i := range tools {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"%s.t%03d","description":"d","payload":%s}`, name, i, schema)
	}
	b.WriteString(`]},"revision":"r1","endpoint":"https://tools.example/x"}`)
	return b.String()
}

// refusals are the refused publishes of deepPublishBody: from a principal
// without any publish scope (refused before the body is read), from one
// that may publish another toolset, and from the toolset's publisher
// (refused by the schema limits).
var refusals = []struct {
	name, token, toolset string
	status               int
}{
	{"consume-only", consumerToken, "records", http.StatusForbidden},
	{"other-toolset", publisherToken, "billing", http.StatusForbidden},
	{"publisher", publisherToken, "records", http.StatusUnprocessableEntity},
}

func refusePublish(tb testing.TB, h http.Handler, token, body string, status int) {
	req := httptest.NewRequest(http.MethodPost, registry.PathToolsets, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != status {
		tb.Fatalf("status %d, want %d: %.300s", rec.Code, status, rec.Body)
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkRefusedPublish measures what refusing deepPublishBody costs the
// registry, in CPU time of the whole process (garbage collection included)
// per refusal (cpu-ms/op), against reading the body alone.
func BenchmarkRefusedPublish(b *testing.B) {
	svc, err := service.New(service.WithCredentials(mustCredentials(b)))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	h := svc.Handler()
	for _, bc := range refusals {
		b.Run(bc.name, func(b *testing.B) {
			body := deepPublishBody(bc.toolset)
			b.SetBytes(int64(len(body)))
			start := cpuTime(b)
			for b.Loop() {
				refusePublish(b, h, bc.token, body, bc.status)
			}
			b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
	b.Run("read the body", func(b *testing.B) {
		body := deepPublishBody("records")
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if _, err := io.ReadAll(strings.NewReader(body)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestRefusedPublishIsNotDecoded: a refused publish of deepPublishBody is
// refused from one pass over its bytes: it allocates no more than twice
// what reading the body alone allocates (plus 1 MiB), where decoding it
// allocates fifty times that and more. Allocation is counted, not time.
func TestRefusedPublishIsNotDecoded(t *testing.T) {
	svc, err := service.New(service.WithCredentials(mustCredentials(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	h := svc.Handler()
	for _, tc := range refusals {
		body := deepPublishBody(tc.toolset)
		refusePublish(t, h, tc.token, body, tc.status) // warm
		read := allocated(func() {
			req := httptest.NewRequest(http.MethodPost, registry.PathToolsets, strings.NewReader(body))
			if _, err := io.ReadAll(req.Body); err != nil {
				t.Fatal(err)
			}
		})
		got := allocated(func() { refusePublish(t, h, tc.token, body, tc.status) })
		if limit := 2*read + 1<<20; got > limit {
			t.Errorf("%s: refusing a %d-byte publish allocated %d bytes, over %d (twice the %d bytes reading it allocates, and 1 MiB)", tc.name, len(body), got, limit, read)
		}
	}
}
