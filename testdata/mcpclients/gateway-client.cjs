// gateway-client.cjs drives an MCP discovery gateway with the TypeScript
// SDK's client: it lists the tools, searches, waits for
// notifications/tools/list_changed, lists again and calls the found tool.
// GATEWAY is either the goa-discovery program, started over stdio as
// "goa-discovery mcp gateway --config CONFIG", or the URL of a gateway
// served over streamable HTTP (CONFIG is then "-"). It prints one JSON
// object of what it saw on stdout and exits 1 on any failure.
//
//   node gateway-client.cjs SDK_NODE_MODULES GATEWAY CONFIG QUERY TOOL ARGS_JSON
const [modules, gateway, config, query, tool, argsJSON] = process.argv.slice(2);
const load = (m) => require(require.resolve(m, { paths: [modules] }));
const { Client } = load("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = load("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = load("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ToolListChangedNotificationSchema } = load("@modelcontextprotocol/sdk/types.js");

async function main() {
  const client = new Client({ name: "gateway-client", version: "1.0.0" });
  let changed;
  const listChanged = new Promise((resolve) => { changed = resolve; });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
  const transport = /^https?:\/\//.test(gateway)
    ? new StreamableHTTPClientTransport(new URL(gateway))
    : new StdioClientTransport({ command: gateway, args: ["mcp", "gateway", "--config", config], stderr: "inherit" });
  await client.connect(transport);
  const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();
  const seen = { first: await names() };
  const search = await client.callTool({ name: "tool_search", arguments: { query } });
  seen.found = JSON.parse(search.content[0].text).tools.map((t) => t.name);
  await Promise.race([listChanged, new Promise((_, reject) => setTimeout(() => reject(new Error("no list_changed")), 30000))]);
  seen.listChanged = true;
  seen.after = await names();
  const res = await client.callTool({ name: tool, arguments: JSON.parse(argsJSON) });
  seen.isError = Boolean(res.isError);
  seen.text = res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
  await client.close();
  process.stdout.write(JSON.stringify(seen) + "\n");
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack || err) + "\n");
  process.exit(1);
});
