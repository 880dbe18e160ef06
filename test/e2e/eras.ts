import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { AUTH, gatewayUrl, postMcp } from "./client";

/** What went over the wire: each POSTed message's method and the protocol version header it carried. */
export interface Wire {
  methods: string[];
  versions: Set<string>;
  bodies: unknown[];
}

/** A fetch that records the wire, with the test key. */
export function recordingFetch(wire: Wire, headers: Record<string, string> = AUTH) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const h = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) h.set(k, v);
    if (typeof init?.body === "string") {
      const body = JSON.parse(init.body) as { method?: string } | Array<{ method?: string }>;
      wire.bodies.push(body);
      for (const m of Array.isArray(body) ? body : [body]) if (m.method) wire.methods.push(m.method);
      const version = h.get("MCP-Protocol-Version");
      if (version) wire.versions.add(version);
    }
    return fetch(url, { ...init, headers: h });
  };
}

export const newWire = (): Wire => ({ methods: [], versions: new Set(), bodies: [] });

export type Era = "v2 pinned to 2026-07-28" | "v2 auto" | "v2 legacy" | "v1";
export const ERAS: Array<{ era: Era; expects: "2026-07-28" | "2025-11-25" }> = [
  { era: "v2 pinned to 2026-07-28", expects: "2026-07-28" },
  { era: "v2 auto", expects: "2026-07-28" },
  { era: "v2 legacy", expects: "2025-11-25" },
  { era: "v1", expects: "2025-11-25" },
];

type Structured = { structuredContent?: unknown; isError?: boolean; content?: unknown };

/** The few calls the tests make, whichever SDK and mode the client is. */
export interface EraClient {
  wire: Wire;
  callTool(name: string, args: Record<string, unknown>): Promise<Structured>;
  request<T>(method: string, params: Record<string, unknown>, schema: z.ZodType<T>): Promise<T>;
  close(): Promise<void>;
}

export async function eraClient(era: Era, headers: Record<string, string> = AUTH): Promise<EraClient> {
  const wire = newWire();
  const url = new URL(`${gatewayUrl()}/mcp`);
  const fetch = recordingFetch(wire, headers);
  let client: SdkClient;
  if (era === "v1") {
    const v1 = new V1Client({ name: "e2e-v1", version: "1.0.0" });
    await v1.connect(new V1Transport(url, { fetch }));
    client = v1;
  } else {
    const mode =
      era === "v2 auto" ? "auto" : era === "v2 legacy" ? undefined : { pin: "2026-07-28" as const };
    const v2 = new V2Client(
      { name: "e2e-v2", version: "1.0.0" },
      mode ? { versionNegotiation: { mode } } : {},
    );
    await v2.connect(new V2Transport(url, { fetch }));
    client = v2;
  }
  return {
    wire,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as Structured,
    request: async (method, params, schema) =>
      schema.parse(await client.request({ method, params }, z.unknown())),
    close: () => client.close(),
  };
}

/** What the tests use of either SDK's client. */
interface SdkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  request(request: { method: string; params: Record<string, unknown> }, schema: z.ZodType): Promise<unknown>;
  close(): Promise<void>;
}

/** A raw MCP 2026-07-28 request: the envelope in `_meta`, `Mcp-Method` / `Mcp-Name` (which `headers` may change). */
export function postModern(
  method: string,
  params: Record<string, unknown>,
  options: { headers?: Record<string, string>; capabilities?: Record<string, unknown> } = {},
): Promise<Response> {
  const name = typeof params.name === "string" ? params.name : undefined;
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "e2e-raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? {},
  };
  return postMcp(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } },
    {
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
      ...options.headers,
    },
  );
}
