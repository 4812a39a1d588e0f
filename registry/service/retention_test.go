package service_test

import (
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
)

func TestOptionsRejected(t *testing.T) {
	cases := []struct {
		name string
		opt  service.Option
	}{
		{"in-flight", service.WithMaxInFlight(0)},
		{"body", service.WithMaxBodyBytes(-1)},
		{"timeout", service.WithForwardTimeout(0)},
		{"retention", service.WithCallRetention(-time.Second)},
		{"clock", service.WithClock(nil)},
	}
	for _, tc := range cases {
		if _, err := service.New(service.WithLoopbackEndpoints(), tc.opt); err == nil {
			t.Errorf("%s: New accepted an invalid option", tc.name)
		}
	}
}
