// gateway-client.cjs drives "goa-discovery mcp gateway" with the
// TypeScript SDK's client over stdio: it lists the tools, searches, waits
// for notifications/tools/list_changed, lists again and calls the found
// tool. It prints one JSON object of what it saw on stdout and exits 1 on
// any failure.
//
//   node gateway-client.cjs SDK_NODE_MODULES GATEWAY CONFIG QUERY TOOL ARGS_JSON
const [modules, gateway, config, query, tool, argsJSON] = process.argv.slice(2);
const load = (m) => require(require.resolve(m, { paths: [modules] }));
const { Client } = load("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = load("@modelcontextprotocol/sdk/client/stdio.js");
const { ToolListChangedNotificationSchema } = load("@modelcontextprotocol/sdk/types.js");

async function main() {
  const client = new Client({ name: "gateway-client", version: "1.0.0" });
  let changed;
  const listChanged = new Promise((resolve) => { changed = resolve; });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
  await client.connect(new StdioClientTransport({ command: gateway, args: ["mcp", "gateway", "--config", config], stderr: "inherit" }));
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
