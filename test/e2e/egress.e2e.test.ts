import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { adminRequest, gatewayUrl } from "./client";

// A team allows one local host:port. That server has an open redirect; the gateway must refuse the
// hop to a second local server the team does not list, and that server must never see a request.
let allowed: Server;
let other: Server;
const otherHits: string[] = [];
let key = "";
let allowedPort = 0;

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

const admin = adminRequest;

beforeAll(async () => {
  other = createServer((req, res) => {
    otherHits.push(req.url ?? "");
    res.end("secret from the other host");
  });
  const otherPort = await listen(other);
  allowed = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/redirect") {
      res.writeHead(302, { Location: `http://127.0.0.1:${otherPort}/steal` }).end();
    } else res.end("hello from the allowed host");
  });
  allowedPort = await listen(allowed);
  expect((await admin("PUT", "/teams/e2e-egress", { egress: [`127.0.0.1:${allowedPort}`] })).status).toBe(
    201,
  );
  const created = (await (await admin("POST", "/teams/e2e-egress/keys", { name: "egress" })).json()) as {
    key: string;
  };
  key = created.key;
});

afterAll(async () => {
  await admin("DELETE", "/teams/e2e-egress");
  allowed?.close();
  other?.close();
});

it("follows no redirect to a host the team does not list, and lets the listed one through", async () => {
  const port = allowedPort;
  const code = `const ok = await (await fetch("http://127.0.0.1:${port}/")).text();
const hop = await fetch("http://127.0.0.1:${port}/redirect");
return { ok, status: hop.status, error: (await hop.json()).error };`;
  const res = await fetch(`${gatewayUrl()}/v1/execute`, {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = (await res.json()) as { result: { ok: string; status: number; error: string } };
  expect(body.result.ok).toBe("hello from the allowed host");
  expect(body.result.status).toBe(403);
  expect(body.result.error).toMatch(/is not allowed for team "e2e-egress".*redirected there by 127\.0\.0\.1/);
  expect(otherHits).toEqual([]);
});
