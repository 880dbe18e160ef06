import { describe, expect, it } from "vitest";
import { parseMcpServers } from "../../workers/gateway/upstreams/config";

const binding = { fetch: async () => new Response("ok") };

describe("parseMcpServers", () => {
  it("parses url and service servers, fills ${SECRETS} in headers, and hashes the spec as written", async () => {
    const raw = JSON.stringify({
      github: {
        url: "https://api.example/mcp",
        headers: { Authorization: "Bearer ${GH_TOKEN}" },
        description: "GitHub",
      },
      demo: { service: "DEMO", transport: "streamable-http" },
    });
    const { servers, problems } = await parseMcpServers(raw, { GH_TOKEN: "s3cret", DEMO: binding });
    expect(problems).toEqual([]);
    expect(servers[0]).toMatchObject({
      name: "github",
      url: "https://api.example/mcp",
      headers: { Authorization: "Bearer s3cret" },
      transport: "auto",
    });
    expect(servers[0]!.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(servers[1]).toMatchObject({ name: "demo", service: binding, transport: "streamable-http" });
  });

  it("names the server and field of each problem and keeps the good servers", async () => {
    const raw = JSON.stringify({
      good: { url: "https://ok.example/mcp" },
      "Bad.Name": { url: "https://x.example" },
      nourl: { description: "neither" },
      both: { url: "https://x.example", service: "DEMO" },
      badurl: { url: "ftp://x.example" },
      extra: { url: "https://x.example", colour: "blue" },
      secret: { url: "https://x.example", headers: { "X-Key": "${MISSING}" } },
      nobinding: { service: "NOPE" },
      badtransport: { url: "https://x.example", transport: "websocket" },
    });
    const { servers, problems } = await parseMcpServers(raw, { DEMO: binding });
    expect(servers.map((s) => s.name)).toEqual(["good"]);
    expect(problems).toEqual([
      expect.stringMatching(/^MCP_SERVERS\.Bad\.Name: server names must match/),
      "MCP_SERVERS.nourl: needs exactly one of url or service",
      "MCP_SERVERS.both: needs exactly one of url or service",
      "MCP_SERVERS.badurl.url: must be an http(s) URL",
      expect.stringMatching(/^MCP_SERVERS\.extra: .*colour/),
      "MCP_SERVERS.secret.headers.X-Key: references ${MISSING}, which is not set",
      "MCP_SERVERS.nobinding.service: no service binding named NOPE",
      expect.stringMatching(/^MCP_SERVERS\.badtransport\.transport: /),
    ]);
  });

  it("reports bad JSON and a non-object without crashing", async () => {
    expect((await parseMcpServers("{nope", {})).problems[0]).toMatch(/^MCP_SERVERS: not valid JSON/);
    expect((await parseMcpServers("[1]", {})).problems[0]).toMatch(/^MCP_SERVERS: must be a JSON object/);
    expect(await parseMcpServers("", {})).toEqual({ servers: [], problems: [] });
  });
});
