package npmservers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

// Env names the directory holding the servers' executables: the
// node_modules/.bin of the npm install that .ci/run makes.
const Env = "GOA_DISCOVERY_MCP_SERVERS"

// Path returns the path of the installed server executable bin (for example
// "mcp-server-filesystem"). Where node or the server is absent it skips t,
// except in CI (CI=true), where it fails t: CI must run the test.
func Path(t testing.TB, bin string) string {
	t.Helper()
	missing := func(why string) { realdeps.Absent(t, "npm MCP servers", why) }
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not installed")
	}
	dir := os.Getenv(Env)
	if dir == "" {
		missing(Env + " is not set")
	}
	path := filepath.Join(dir, bin)
	if _, err := os.Stat(path); err != nil {
		missing(bin + " is not installed in " + Env)
	}
	return path
}
