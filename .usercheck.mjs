import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
const key = readFileSync("/work/main/.dev.vars", "utf8").match(/DEV_API_KEY="?([^"\n]+)/)[1];
const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8787/mcp"), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
const client = new Client({ name: "user-check", version: "1" });
await client.connect(transport);
console.log("tools:", (await client.listTools()).tools.map((t) => t.name).join(", "));
for (const query of ["close ticket 42", "what tickets do we have", "show ticket 42", "how many open tickets are there", "add a note to ticket #7", "who is the customer on ticket 12", "open a new ticket for cus_00042"]) {
  const s = await client.callTool({ name: "search_tools", arguments: { query, limit: 3, detail: "name" } });
  console.log(`search_tools ${JSON.stringify(query)} →`, s.content[0].text.slice(0, 200).replace(/\n/g, " "));
}
const r = await client.callTool({ name: "execute", arguments: { code: 'const hits = await searchTools("show ticket 42"); return hits.tools?.map((t) => t.name) ?? hits' } });
console.log("searchTools() in code:", JSON.stringify(r.structuredContent).slice(0, 300));
await client.close();
