package example_test

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
)

// TestDecodedArgumentsTakeDesignDefaults checks that the payload codec of
// search_tickets gives an omitted "limit" the design's Default(20) and keeps
// a given one.
func TestDecodedArgumentsTakeDesignDefaults(t *testing.T) {
	spec, ok := tickets.Spec(tickets.SearchTickets)
	if !ok {
		t.Fatal("no spec for search_tickets")
	}
	cases := []struct {
		name    string
		payload string
		limit   int
	}{
		{"omitted limit takes the default", `{"query":"refund"}`, 20},
		{"given limit is kept", `{"query":"refund","limit":3}`, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := spec.Payload.Decode([]byte(tc.payload))
			if err != nil {
				t.Fatalf("Decode(%s): %v", tc.payload, err)
			}
			args, ok := v.(tickets.SearchTicketsArgs)
			if !ok {
				t.Fatalf("Decode(%s) = %T, want tickets.SearchTicketsArgs", tc.payload, v)
			}
			if args.Query != "refund" || args.Limit == nil || *args.Limit != tc.limit {
				t.Fatalf("Decode(%s) = query %q, limit %v; want query \"refund\", limit %d", tc.payload, args.Query, args.Limit, tc.limit)
			}
		})
	}
}
