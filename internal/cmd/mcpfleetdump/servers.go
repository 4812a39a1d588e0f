package main

// fleetServer is one public MCP server of the fleet: the npm package that
// serves it at a pinned version, the executable it installs and how to
// start it offline. Every credential is a dummy, and every URL it could
// reach points at a closed loopback port: listing tools needs no network.
type fleetServer struct {
	// name is the server's toolset in the pooled catalog, its tools named
	// "<name>.<tool>".
	name string
	pkg  string
	ver  string
	bin  string
	args []string
	env  []string
}

// closedURL is a loopback address that no server listens on.
const closedURL = "http://127.0.0.1:9"

// fleet is the fleet, in the order of the pooled catalog.
var fleet = []fleetServer{
	{name: "github", pkg: "@modelcontextprotocol/server-github", ver: "2025.4.8", bin: "mcp-server-github",
		env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=dummy", "GITHUB_API_URL=" + closedURL}},
	{name: "gitlab", pkg: "@modelcontextprotocol/server-gitlab", ver: "2025.4.25", bin: "mcp-server-gitlab",
		env: []string{"GITLAB_PERSONAL_ACCESS_TOKEN=dummy", "GITLAB_API_URL=" + closedURL + "/api/v4"}},
	{name: "slack", pkg: "@modelcontextprotocol/server-slack", ver: "2025.4.25", bin: "mcp-server-slack",
		env: []string{"SLACK_BOT_TOKEN=xoxb-dummy", "SLACK_TEAM_ID=T00000000"}},
	{name: "postgres", pkg: "@modelcontextprotocol/server-postgres", ver: "0.6.2", bin: "mcp-server-postgres",
		args: []string{"postgresql://dummy:dummy@127.0.0.1:9/dummy"}},
	{name: "puppeteer", pkg: "@modelcontextprotocol/server-puppeteer", ver: "2025.5.12", bin: "mcp-server-puppeteer"},
	{name: "google_maps", pkg: "@modelcontextprotocol/server-google-maps", ver: "0.6.2", bin: "mcp-server-google-maps",
		env: []string{"GOOGLE_MAPS_API_KEY=dummy"}},
	{name: "brave_search", pkg: "@modelcontextprotocol/server-brave-search", ver: "0.6.2", bin: "mcp-server-brave-search",
		env: []string{"BRAVE_API_KEY=dummy"}},
	{name: "sequential_thinking", pkg: "@modelcontextprotocol/server-sequential-thinking", ver: "2026.8.31", bin: "mcp-server-sequential-thinking"},
	{name: "filesystem", pkg: "@modelcontextprotocol/server-filesystem", ver: "2026.8.31", bin: "mcp-server-filesystem",
		args: []string{"{tmp}"}},
	{name: "everything", pkg: "@modelcontextprotocol/server-everything", ver: "2026.8.31", bin: "mcp-server-everything"},
	{name: "memory", pkg: "@modelcontextprotocol/server-memory", ver: "2026.8.31", bin: "mcp-server-memory",
		env: []string{"MEMORY_FILE_PATH={tmp}/memory.json"}},
	{name: "notion", pkg: "@notionhq/notion-mcp-server", ver: "2.5.2", bin: "notion-mcp-server",
		env: []string{"NOTION_TOKEN=ntn_dummy", "BASE_URL=" + closedURL}},
	{name: "sentry", pkg: "@sentry/mcp-server", ver: "0.39.0", bin: "sentry-mcp",
		args: []string{"--access-token=dummy", "--host=127.0.0.1:9"}},
	{name: "mongodb", pkg: "mongodb-mcp-server", ver: "3.0.4", bin: "mongodb-mcp-server",
		env: []string{"MDB_MCP_CONNECTION_STRING=mongodb://127.0.0.1:9/", "MDB_MCP_TELEMETRY=disabled"}},
	{name: "kubernetes", pkg: "mcp-server-kubernetes", ver: "4.1.7", bin: "mcp-server-kubernetes",
		env: []string{"KUBECONFIG={tmp}/kubeconfig"}},
	{name: "desktop_commander", pkg: "@wonderwhy-er/desktop-commander", ver: "0.2.52", bin: "desktop-commander"},
	{name: "chrome_devtools", pkg: "chrome-devtools-mcp", ver: "1.11.0", bin: "chrome-devtools-mcp"},
	{name: "hubspot", pkg: "@hubspot/mcp-server", ver: "0.4.0", bin: "mcp-hubspot",
		env: []string{"PRIVATE_APP_ACCESS_TOKEN=pat-dummy"}},
	{name: "firecrawl", pkg: "firecrawl-mcp", ver: "3.26.0", bin: "firecrawl-mcp",
		env: []string{"FIRECRAWL_API_KEY=fc-dummy", "FIRECRAWL_API_URL=" + closedURL}},
}
