package expr_test

import (
	"testing"

	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// TestDefaultRules covers defaults that their attribute's own schema
// rejects: each is reported at the Args or Return that holds it, with the
// schema's verdict.
func TestDefaultRules(t *testing.T) {
	designtest.RunCases(t, 0, []designtest.Case{
		{Name: "defaults outside their attribute's validations", Design: func() {
			Toolset("tickets", func() {
				Tool("search", "Search tickets", func() {
					Args(func() { // ERR search-args
						Attribute("limit", Int, func() { Maximum(100); Default(200) })
						Attribute("offset", Int, func() { Minimum(0); Default(-1) })
						Attribute("since", String, func() { Format(FormatDate); Default("yesterday") })
						Attribute("owner", String, func() { Pattern("^[a-z]+$"); Default("Ann") })
						Attribute("query", String, func() { MinLength(3); Default("ab") })
						Attribute("tags", ArrayOf(String), func() { MaxLength(1); Default([]string{"a", "b"}) })
						Attribute("small", Int32, func() { Default(1 << 40) })
						Attribute("sort", String, func() { Enum("asc", "desc"); Default("up") })
						Required("query")
					})
				})
			})
		}, Want: []designtest.Want{
			exact(`tool "search" of toolset "tickets": Args attribute "limit": default 200 does not satisfy the attribute's own schema: maximum: got 200, want 100`, "search-args"),
			exact(`tool "search" of toolset "tickets": Args attribute "offset": default -1 does not satisfy the attribute's own schema: minimum: got -1, want 0`, "search-args"),
			exact(`tool "search" of toolset "tickets": Args attribute "since": default "yesterday" does not satisfy the attribute's own schema: 'yesterday' is not valid date: parsing time "yesterday" as "2006-01-02": cannot parse "yesterday" as "2006"`, "search-args"),
			exact(`tool "search" of toolset "tickets": Args attribute "owner": default "Ann" does not satisfy the attribute's own schema: 'Ann' does not match pattern '^[a-z]+$'`, "search-args"),
			exact(`tool "search" of toolset "tickets": Args attribute "query": default "ab" does not satisfy the attribute's own schema: minLength: got 2, want 3`, "search-args"),
			exact(`tool "search" of toolset "tickets": Args attribute "tags": default ["a","b"] does not satisfy the attribute's own schema: maxItems: got 2, want 1`, "search-args"),
			exact(`tool "search" of toolset "tickets": Args attribute "small": default 1099511627776 does not satisfy the attribute's own schema: maximum: got 1.099511627776×10¹², want 2.147483647×10⁰⁹`, "search-args"),
			// Goa's own validation rejects a primitive's default outside its
			// Enum; the default is not reported a second time.
			exact(`tool "search" of toolset "tickets": Args: field sort - default value "up" is not one of the accepted values: []interface {}{"asc", "desc"}`, "search-args"),
		}},
		{Name: "defaults of user types and of the types they extend", Design: func() {
			limit := Type("Limit", Int, func() { Maximum(100); Default(200) })
			page := Type("Page", func() {
				Attribute("size", Int, func() { Maximum(50); Default(60) })
			})
			base := Type("Base", func() {
				Attribute("depth", Int, func() { Maximum(3); Default(4) })
			})
			Toolset("tickets", func() {
				Tool("list", "List tickets", func() {
					Args(func() { // ERR list-args
						Attribute("limit", limit)
						Attribute("narrow", Int, func() { Maximum(10); Default(50) })
					})
					Return(page) // ERR list-return
				})
				Tool("count", "Count tickets", func() {
					Args(func() { Attribute("limit", limit) }) // ERR count-args
				})
				Tool("walk", "Walk tickets", func() {
					Args(func() { Extend(base) }) // ERR walk-args
				})
			})
		}, Want: []designtest.Want{
			exact(`tool "list" of toolset "tickets": Args attribute "limit": default 200 does not satisfy the attribute's own schema: maximum: got 200, want 100`, "list-args"),
			exact(`tool "list" of toolset "tickets": Args attribute "narrow": default 50 does not satisfy the attribute's own schema: maximum: got 50, want 10`, "list-args"),
			exact(`tool "list" of toolset "tickets": type "Page" attribute "size": default 60 does not satisfy the attribute's own schema: maximum: got 60, want 50`, "list-return"),
			exact(`tool "count" of toolset "tickets": Args attribute "limit": default 200 does not satisfy the attribute's own schema: maximum: got 200, want 100`, "count-args"),
			exact(`tool "walk" of toolset "tickets": Args attribute "depth": default 4 does not satisfy the attribute's own schema: maximum: got 4, want 3`, "walk-args"),
		}},
		{Name: "defaults their Go types cannot hold", Design: func() {
			Toolset("reports", func() {
				Tool("render", "Render a report", func() {
					Args(func() { // ERR render-args
						Attribute("scale", Float32, func() { Default(1e300) })
						Attribute("logo", Bytes, func() { Default("not base64!") })
						Attribute("weights", MapOf(String, ArrayOf(Float32)), func() {
							Default(map[string][]float64{"a": {1, 1e39}})
						})
					})
				})
			})
		}, Want: []designtest.Want{
			exact(`tool "render" of toolset "reports": Args attribute "scale": default 1e+300 does not fit the attribute's Go type: float32: strconv.ParseFloat: parsing "1e+300": value out of range`, "render-args"),
			exact(`tool "render" of toolset "reports": Args attribute "logo": default "not base64!" does not fit the attribute's Go type: bytes: illegal base64 data at input byte 3`, "render-args"),
			exact(`tool "render" of toolset "reports": Args attribute "weights": default {"a":[1,1e+39]} does not fit the attribute's Go type: key "a": item 1: float32: strconv.ParseFloat: parsing "1e+39": value out of range`, "render-args"),
		}},
	})
}

// TestDefaultsWithinTheirSchemas checks defaults that their schemas accept.
func TestDefaultsWithinTheirSchemas(t *testing.T) {
	if _, err := designtest.Run(t, func() {
		limit := Type("Limit", Int, func() { Maximum(100); Default(20) })
		Toolset("tickets", func() {
			Tool("search", "Search tickets", func() {
				Args(func() {
					Attribute("limit", limit)
					Attribute("since", String, func() { Format(FormatDateTime); Default("2024-01-02T03:04:05Z") })
					Attribute("owner", String, func() { Pattern("^[a-z]+$"); Default("ann") })
					Attribute("sort", String, func() { Enum("asc", "desc"); Default("asc") })
					Attribute("tags", ArrayOf(String), func() { MaxLength(2); Default([]string{"a"}) })
					Attribute("small", UInt32, func() { Default(7) })
					Attribute("ratio", Float64, func() { Minimum(0); Maximum(1); Default(0.5) })
					Attribute("scale", Float32, func() { Default(0.25) })
					Attribute("logo", Bytes, func() { Default("aGk=") })
					Attribute("by_id", MapOf(Int, UInt32), func() { Default(map[int]uint32{1: 2}) })
				})
			})
		})
	}); err != nil {
		t.Fatalf("design does not validate: %v", err)
	}
}
