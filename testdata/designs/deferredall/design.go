// Package deferredall is a golden design: an agent that defers every tool
// of a toolset with Deferred().
package deferredall

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	weather := Toolset("weather", func() {
		Description("Weather forecasts and observations")
		Tool("forecast", "Forecast the weather for a city", func() {
			Args(func() {
				Attribute("city", String, "City name")
				Attribute("days", Int, "Number of days")
				Required("city")
			})
			Return(String, "Forecast text")
		})
		Tool("observe", "Observe the current temperature of a city", func() {
			Args(func() {
				Attribute("city", String, "City name")
				Required("city")
			})
			Return(Float64, "Temperature in degrees Celsius")
		})
	})
	Service("travel", func() {
		Agent("planner", "Plan trips.", func() {
			Use(weather, func() { Deferred() })
		})
	})
}
