package realdeps

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Marker starts the message of every skip this package makes: "real
// component absent: COMPONENT: WHY".
const Marker = "real component absent: "

// Absent skips t because component is absent, for the reason why; under
// CI=true it fails t instead. component names the thing to install
// ("redis-server"), why what was seen ("GOA_DISCOVERY_REDIS_URL is not
// set").
func Absent(t testing.TB, component, why string) {
	t.Helper()
	msg := Message(component, why)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI must run this test (scripts/test-deps installs it)", msg)
	}
	t.Skip(msg + " (scripts/test-deps installs it)")
}

// Message is the text of a skip for component and why.
func Message(component, why string) string {
	return Marker + component + ": " + why
}

// Parse returns the component and reason of a skip message that Message
// made, wherever it is in text; ok is false when text holds none.
func Parse(text string) (component, why string, ok bool) {
	_, rest, found := strings.Cut(text, Marker)
	if !found {
		return "", "", false
	}
	rest, _, _ = strings.Cut(rest, "\n")
	rest = strings.TrimSuffix(strings.TrimSpace(rest), " (scripts/test-deps installs it)")
	component, why, found = strings.Cut(rest, ": ")
	if !found || component == "" {
		return "", "", false
	}
	return component, why, true
}

// Env returns the value of the environment variable name, or skips t with
// component absent when it is unset.
func Env(t testing.TB, component, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		Absent(t, component, fmt.Sprintf("%s is not set", name))
	}
	return v
}
