import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionAnswer } from "../../shared/contract/session";
import type { GatewayEnv } from "../../workers/gateway/env";
import { createSession, sessionStub } from "../../workers/gateway/sessions/store";
import { AUTH, request, requestWith } from "../helpers/app";
import { QUOTA } from "../helpers/session-storage";

// GET /v1/sessions/{id}/files/{path}: a workspace file out of band (docs/sessions.md).
const gatewayEnv = env as unknown as GatewayEnv;

async function sessionWith(files: Record<string, string | Uint8Array>, team = "default"): Promise<string> {
  const { id } = await createSession(gatewayEnv, { kind: "api", team, ttlSeconds: 60 });
  for (const [path, data] of Object.entries(files)) await write(id, path, data, team);
  return id;
}

async function write(id: string, path: string, data: string | Uint8Array, team = "default"): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const answer = (await sessionStub(gatewayEnv, id).call(
    team,
    { op: "workspace.write", path, data: bytes },
    QUOTA,
  )) as SessionAnswer;
  if (!answer.ok) throw new Error(answer.error.message);
}

const get = (id: string, path: string, headers: Record<string, string> = {}) =>
  request(`/v1/sessions/${id}/files/${path}`, { headers: { ...AUTH, ...headers } });

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

describe("GET /v1/sessions/{id}/files/{path}", () => {
  it("serves the file's bytes with its type, length, a strong ETag and nosniff", async () => {
    const id = await sessionWith({ "reports/q3 summary.md": "# Q3 ✓\n" });
    const res = await get(id, "reports/q3%20summary.md");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("# Q3 ✓\n");
    expect(res.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("Content-Length")).toBe("9");
    expect(res.headers.get("ETag")).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Disposition")).toBeNull();
  });

  it("answers 304 to If-None-Match with the current ETag, and 200 with a new one after a write", async () => {
    const id = await sessionWith({ "data.json": '{"a":1}' });
    const etag = (await get(id, "data.json")).headers.get("ETag") as string;
    const same = await get(id, "data.json", { "If-None-Match": etag });
    expect(same.status).toBe(304);
    expect(same.headers.get("ETag")).toBe(etag);
    expect(await same.text()).toBe("");
    expect((await get(id, "data.json", { "If-None-Match": `"other", W/${etag}` })).status).toBe(304);
    await write(id, "data.json", '{"a":2}');
    const changed = await get(id, "data.json", { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(changed.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(await changed.json()).toEqual({ a: 2 });
  });

  it("types binary files from the extension, and unknown extensions as octet-stream", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const id = await sessionWith({ "img/chart.png": png, "blob.bin": "plain text", noext: "x" });
    const image = await get(id, "img/chart.png");
    expect(image.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(png);
    expect((await get(id, "blob.bin")).headers.get("Content-Type")).toBe("application/octet-stream");
    expect((await get(id, "noext")).headers.get("Content-Type")).toBe("application/octet-stream");
  });

  it("serves HTML and SVG as attachments that cannot run script", async () => {
    const id = await sessionWith({
      "out/page.html": "<script>alert(1)</script>",
      "out/logo (1).svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    });
    const html = await get(id, "out/page.html");
    expect(html.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("Content-Disposition")).toBe(
      `attachment; filename="page.html"; filename*=UTF-8''page.html`,
    );
    expect(html.headers.get("Content-Security-Policy")).toContain("sandbox");
    const svg = await get(id, "out/logo%20(1).svg");
    expect(svg.headers.get("Content-Type")).toBe("image/svg+xml; charset=utf-8");
    expect(svg.headers.get("Content-Disposition")).toBe(
      `attachment; filename="logo__1_.svg"; filename*=UTF-8''logo%20%281%29.svg`,
    );
  });

  it("answers 404 naming the path for a missing file", async () => {
    const id = await sessionWith({ "a.txt": "a" });
    const res = await get(id, "b.txt");
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toMatchObject({
      code: "file_not_found",
      message: expect.stringContaining('"b.txt"'),
    });
  });

  it("answers 404 session_not_found for an unknown id, a non-id and another team's session", async () => {
    const theirs = await sessionWith({ "secret.txt": "theirs" }, "someone-else");
    for (const id of [theirs, crypto.randomUUID(), "not-a-session"]) {
      const res = await get(id, "secret.txt");
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe("session_not_found");
    }
  });

  it("refuses paths that are not workspace paths with 400 invalid_path", async () => {
    const id = await sessionWith({ "a/b.txt": "b" });
    for (const path of ["a%2F..%2Fb.txt", "a//b.txt", "a/", "%ZZ", ""]) {
      const res = await get(id, path);
      expect(res.status, path).toBe(400);
      expect((await errorOf(res)).code).toBe("invalid_path");
    }
    expect(await (await get(id, "a%2Fb.txt")).text()).toBe("b");
  });

  it("tokenizes PII in text files when the team tokenizes, as resources/read does", async () => {
    const id = await sessionWith({ "people.csv": "name,email\nAna,ana.garcia@example.com\n" });
    const res = await requestWith({ PII_MODE: "tokenize" }, `/v1/sessions/${id}/files/people.csv`, {
      headers: AUTH,
    });
    const text = await res.text();
    expect(text).toBe("name,email\nAna,[EMAIL_1]\n");
    expect(res.headers.get("Content-Length")).toBe(String(new TextEncoder().encode(text).byteLength));
  });
});
