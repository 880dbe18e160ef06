import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ElicitRequest, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute, gatewayUrl, teamWithKey } from "./client";

// An API known only by its OpenAPI description (contract "OpenAPI upstreams"): the test serves the
// description and the API itself, which records every request it gets.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}
const seen: Seen[] = [];
let server: Server;
let port = 0;
const clients: Client[] = [];
let auth: Record<string, string>;

const description = () => ({
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.0.0" },
  servers: [{ url: `http://127.0.0.1:${port}/api` }],
  paths: {
    "/pets/{petId}": {
      parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
      get: {
        operationId: "getPet",
        summary: "Get one pet by its id",
        parameters: [{ name: "fields", in: "query", schema: { type: "array", items: { type: "string" } } }],
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        },
      },
      delete: {
        operationId: "deletePet",
        summary: "Delete a pet for good",
        responses: { "204": { description: "gone" } },
      },
    },
    "/pets": {
      post: {
        operationId: "createPet",
        summary: "Add a pet to the store",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewPet" } } },
        },
        responses: {
          "201": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        },
      },
    },
    "/moved": { get: { operationId: "movedAway", responses: { "200": { description: "ok" } } } },
    "/export": {
      get: {
        operationId: "exportAll",
        summary: "Export every pet",
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      NewPet: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, tag: { type: "string" } },
      },
      Pet: {
        allOf: [
          { $ref: "#/components/schemas/NewPet" },
          { type: "object", properties: { id: { type: "integer" } } },
        ],
      },
    },
  },
});

function api(
  req: IncomingMessage,
  body: string,
): { status: number; json?: unknown; headers?: Record<string, string> } {
  const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
  const pet = url.pathname.match(/^\/api\/pets\/([^/]+)$/);
  if (url.pathname === "/openapi.json") return { status: 200, json: description() };
  if (pet && req.method === "GET") {
    if (pet[1] !== "7")
      return { status: 404, json: { message: `pet ${decodeURIComponent(pet[1]!)} not found` } };
    return { status: 200, json: { id: 7, name: "Rex", tag: url.searchParams.getAll("fields").join("+") } };
  }
  if (pet && req.method === "DELETE") return { status: 204 };
  if (url.pathname === "/api/pets" && req.method === "POST")
    return { status: 201, json: { id: 8, ...JSON.parse(body) } };
  if (url.pathname === "/api/moved")
    return { status: 302, headers: { Location: `http://localhost:${port}/api/stolen` } };
  return { status: 404, json: { message: "no route" } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url === "/api/export") {
        // 50 MB of JSON, written as the reader takes it
        res.writeHead(200, { "Content-Type": "application/json" });
        const row = `${JSON.stringify({ id: 1, name: "x".repeat(1000) })},`;
        let sent = 0;
        const pump = () => {
          while (sent < 50_000_000) {
            sent += row.length;
            if (!res.write(sent === row.length ? `[${row}` : row)) return void res.once("drain", pump);
          }
          res.end("{}]");
        };
        res.on("error", () => {});
        return pump();
      }
      const out = api(req, body);
      res.writeHead(out.status, {
        ...(out.json ? { "Content-Type": "application/json" } : {}),
        ...out.headers,
      });
      res.end(out.json === undefined ? undefined : JSON.stringify(out.json));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  port = (server.address() as AddressInfo).port;
  auth = await teamWithKey("openapi-e2e", {
    servers: {
      pets: { openapi: `http://127.0.0.1:${port}/openapi.json`, headers: { "X-Api-Key": "k-123" } },
    },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

async function client(
  answer?: (asked: ElicitRequest["params"]) => { action: "accept"; content: Record<string, unknown> },
) {
  const asked: ElicitRequest["params"][] = [];
  const c = new Client(
    { name: "e2e-openapi", version: "1.0.0" },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer)
    c.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { requestInit: { headers: auth } }),
  );
  clients.push(c);
  return { c, asked };
}

const text = (res: unknown) => (res as { content: { text: string }[] }).content[0]!.text;

describe("an API added by its OpenAPI description", () => {
  it("search finds its operations and their definitions are typed", async () => {
    const { c } = await client();
    const found = JSON.parse(
      text(await c.callTool({ name: "search_tools", arguments: { query: "add a pet" } })),
    );
    expect(found.tools[0]).toMatchObject({ name: "pets.createPet" });
    const def = JSON.parse(
      text(await c.callTool({ name: "get_tool_definition", arguments: { name: "pets.getPet" } })),
    );
    expect(def.typescript).toMatch(/petId: number/);
    expect(def.typescript).toMatch(/fields\?: string\[\]/);
  });

  it("GET with path and query parameters, POST with a JSON body: the API's JSON comes back", async () => {
    const { c } = await client();
    const out = await execute(c, {
      code: `const pet = await tools.pets.getPet({ petId: 7, fields: ["name", "tag"] });
const made = await tools.pets.createPet({ body: { name: "Tom", tag: "cat" } });
return { pet, made };`,
    });
    expect(out.error).toBeUndefined();
    expect(out.result).toEqual({
      pet: { id: 7, name: "Rex", tag: "name+tag" },
      made: { id: 8, name: "Tom", tag: "cat" },
    });
    const get = seen.find((s) => s.method === "GET" && s.url.startsWith("/api/pets/7"))!;
    expect(get.url).toBe("/api/pets/7?fields=name&fields=tag");
    expect(get.headers["x-api-key"]).toBe("k-123");
    const post = seen.find((s) => s.method === "POST")!;
    expect(post.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post.body)).toEqual({ name: "Tom", tag: "cat" });
  });

  it("a DELETE waits for approval, then runs", async () => {
    const { c, asked } = await client(() => ({ action: "accept", content: { approve: true } }));
    const before = seen.filter((s) => s.method === "DELETE").length;
    const out = await execute(c, { code: "return await tools.pets.deletePet({ petId: 7 });" });
    expect(out.error).toBeUndefined();
    expect(out.result).toBeNull();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain("pets.deletePet");
    expect(seen.filter((s) => s.method === "DELETE")).toHaveLength(before + 1);
  });

  it("a 404 is a ToolError with the status and the API's message", async () => {
    const { c } = await client();
    const out = await execute(c, { code: "return await tools.pets.getPet({ petId: 404 });" });
    expect(out.error).toMatchObject({ name: "ToolError" });
    expect(out.error!.message).toContain("HTTP 404");
    expect(out.error!.message).toContain("pet 404 not found");
  });

  it("a redirect to another host is refused, and nothing reaches it", async () => {
    const { c } = await client();
    const out = await execute(c, { code: "return await tools.pets.movedAway({});" });
    expect(out.error).toMatchObject({ name: "UpstreamError" });
    expect(out.error!.message).toContain(`redirected to another host (localhost:${port})`);
    expect(seen.some((s) => s.url.includes("stolen"))).toBe(false);
  });

  it("a team's rename and description are what search, definitions and code see; the call reaches the operation", async () => {
    const renamed = await teamWithKey("openapi-e2e-curated", {
      servers: { pets: { openapi: `http://127.0.0.1:${port}/openapi.json` } },
      tools: { "pets.getPet": { name: "fetch_pet", description: "Look up one animal of the shelter." } },
    });
    const c = new Client({ name: "e2e-openapi", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), {
        requestInit: { headers: renamed },
      }),
    );
    clients.push(c);
    const found = JSON.parse(
      text(await c.callTool({ name: "search_tools", arguments: { query: "animal shelter" } })),
    );
    expect(found.tools[0]).toMatchObject({
      name: "pets.fetch_pet",
      description: "Look up one animal of the shelter.",
    });
    const out = await execute(c, { code: "return await tools.pets.fetch_pet({ petId: 7 });" });
    expect(out.result).toMatchObject({ id: 7, name: "Rex" });
  });

  it("a 50 MB response is capped: refused with a message, not copied into the sandbox", async () => {
    const { c } = await client();
    const started = Date.now();
    const out = await execute(c, { code: "return await tools.pets.exportAll({});" });
    expect(out.error).toMatchObject({ name: "UpstreamError" });
    expect(out.error!.message).toMatch(/returned more than 8000000 bytes/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
