package service_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service"
)

// deepPublishBody is a publish of about 4 MB whose payload schema nests
// as deep as the body allows: refused by the schema limits.
func deepPublishBody() string {
	const depth = 400_000
	return `{"toolset":{"name":"records","tools":[{"name":"records.a","description":"d","payload":` + strings.Repeat(`{"items":`, depth) + `{}` + strings.Repeat(`}`, depth) + `}]},"revision":"r1","endpoint":"https://tools.example/x"}`
}

// BenchmarkRefusedPublish measures what refusing a 4 MB publish costs the
// registry: from a principal without the publish scope (refused before
// the body is read), from one with it (the body read, then refused by the
// schema limits), against reading the body alone.
func BenchmarkRefusedPublish(b *testing.B) {
	body := deepPublishBody()
	svc, err := service.New(service.WithCredentials(mustCredentials(b)))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	h := svc.Handler()
	for _, bc := range []struct {
		name, token string
		status      int
	}{
		{"consume-only", consumerToken, http.StatusForbidden},
		{"publisher", publisherToken, http.StatusBadRequest},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, registry.PathToolsets, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+bc.token)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != bc.status && rec.Code != http.StatusUnprocessableEntity {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
	b.Run("read the body", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if _, err := io.ReadAll(strings.NewReader(body)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
