import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ConnectionInput } from "../../durable-objects/connections/answers";
import type { ConnectionStore } from "../../durable-objects/connections/connection-store";
import { FLOW_TTL_MS } from "../../durable-objects/connections/flows";
import { sha256 } from "../../shared/hash";
import { Sealer } from "../../shared/seal";
import { TEST_CONNECTIONS_KEY, TEST_CONNECTIONS_KEY_PREVIOUS } from "../helpers/keys";

const store = (team: string) => env.CONNECTIONS.get(env.CONNECTIONS.idFromName(team));
const tokens = (access: string, refresh = `${access}-refresh`) =>
  JSON.stringify({ access_token: access, token_type: "Bearer", refresh_token: refresh });
const input = (access: string): ConnectionInput => ({
  tokens: tokens(access),
  issuer: "https://as.example.com",
  resource: "https://mcp.example.com/mcp",
  scopes: ["read", "write"],
  expiresAt: Date.now() + 3_600_000,
  obtainedBy: "code",
});

/** Every value of every table and key of the object's storage, as one text. */
async function everythingStored(team: string): Promise<string> {
  return runInDurableObject(store(team), async (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'",
      )
      .toArray();
    const dump = tables.map(({ name }) => JSON.stringify(sql.exec(`SELECT * FROM "${name}"`).toArray()));
    const kv = [...(await state.storage.list()).entries()];
    return `${tables.map((t) => t.name).join(",")}\n${dump.join("\n")}\n${JSON.stringify(kv)}`;
  });
}

describe("the connection store", () => {
  it("keeps nothing in the clear at rest: tokens, client secrets, verifiers, user secrets", async () => {
    const team = "cs-rest";
    const s = store(team);
    await s.saveConnection(team, "alice", "github", input("PLAIN-ACCESS-alice"));
    await s.saveClient(
      team,
      "github",
      JSON.stringify({ client_id: "cid", client_secret: "PLAIN-CLIENT-SECRET" }),
    );
    await s.setUserSecret(team, "alice", "GITHUB_PAT", "PLAIN-USER-SECRET");
    const flow = await s.openFlow(team, "alice", "github");
    const state = "PLAIN-STATE-value";
    const started = await s.startFlow(team, flow.id, "alice", "github", {
      stateHash: await sha256(state),
      verifier: "PLAIN-VERIFIER-value",
      discovery: JSON.stringify({ authorizationServerUrl: "https://as.example.com" }),
    });
    expect(started).toEqual({ ok: true });

    const stored = await everythingStored(team);
    expect(stored).toContain("connections,registrations,flows");
    expect(stored).toContain("alice"); // the scan does see the rows
    for (const secret of [
      "PLAIN-ACCESS",
      "PLAIN-CLIENT-SECRET",
      "PLAIN-USER-SECRET",
      "PLAIN-STATE",
      "PLAIN-VERIFIER",
    ]) {
      expect(stored).not.toContain(secret);
    }
    // …and each opens through the store.
    expect((await s.connection(team, "alice", "github"))?.tokens).toContain("PLAIN-ACCESS-alice");
    expect((await s.registration(team, "github")).client).toContain("PLAIN-CLIENT-SECRET");
    expect(await s.userSecret(team, "alice", "GITHUB_PAT")).toBe("PLAIN-USER-SECRET");
    expect(await s.takeFlow(team, flow.id, "alice", await sha256(state))).toMatchObject({
      ok: true,
      verifier: "PLAIN-VERIFIER-value",
    });
    expect(JSON.stringify(await s.listConnections(team))).not.toContain("PLAIN");
  });

  it("keeps each user's connection to themselves, even when a ciphertext is moved between rows", async () => {
    const team = "cs-users";
    const s = store(team);
    await s.saveConnection(team, "alice", "github", input("alice-token"));
    expect(await s.connection(team, "bob", "github")).toBeNull();
    await s.saveConnection(team, "bob", "github", input("bob-token"));
    expect((await s.connection(team, "bob", "github"))?.tokens).toContain("bob-token");
    // Someone with write access to the storage copies alice's sealed tokens into bob's row.
    await runInDurableObject(s, async (_i, state) => {
      state.storage.sql.exec(
        "UPDATE connections SET tokens = (SELECT tokens FROM connections WHERE user = 'alice') WHERE user = 'bob'",
      );
    });
    const bob = await s.connection(team, "bob", "github");
    expect(bob).toMatchObject({ status: "expired", tokens: null });
    expect((await s.listConnections(team, "bob"))[0]).toMatchObject({ user: "bob", status: "expired" });
    expect((await s.connection(team, "alice", "github"))?.tokens).toContain("alice-token");
    // Called in the object (an error thrown across RPC is also reported as unhandled by the test pool).
    const refused = await runInDurableObject(s, (instance) =>
      (instance as unknown as ConnectionStore)
        .connection("another-team", "alice", "github")
        .then(String, (err: Error) => err.message),
    );
    expect(refused).toBe(`This connection store is team "cs-users"'s, not "another-team"'s`);
  });

  it("lists connections without tokens, expires and removes them", async () => {
    const team = "cs-list";
    const s = store(team);
    await s.saveConnection(team, "alice", "github", input("tok-1"));
    await s.saveConnection(team, "alice", "linear", input("tok-2"));
    const listed = await s.listConnections(team, "alice");
    expect(listed.map((c) => [c.server, c.status, c.scopes])).toEqual([
      ["github", "connected", ["read", "write"]],
      ["linear", "connected", ["read", "write"]],
    ]);
    expect(JSON.stringify(listed)).not.toContain("tok-");
    expect(await s.expireConnection(team, "alice", "github")).toBe(true);
    expect(await s.connection(team, "alice", "github")).toMatchObject({ status: "expired", tokens: null });
    expect(await s.removeConnection(team, "alice", "linear")).toEqual({
      removed: true,
      tokens: tokens("tok-2"),
    });
    expect(await s.removeConnection(team, "alice", "linear")).toEqual({ removed: false, tokens: null });
  });

  it("re-seals under the new key what the previous key sealed, and reports an unknown key's row as expired", async () => {
    const team = "cs-rotate";
    const s = store(team);
    await s.saveConnection(team, "alice", "github", input("current"));
    const previous = await Sealer.from("X", TEST_CONNECTIONS_KEY_PREVIOUS);
    const current = await Sealer.from("X", TEST_CONNECTIONS_KEY);
    const unknown = await Sealer.from("X", "a-key-this-deployment-never-had-0123456789");
    const binding = { team, user: "alice", subject: "github" };
    const put = (sealed: string) =>
      runInDurableObject(s, async (_i, state) => {
        state.storage.sql.exec("UPDATE connections SET tokens = ? WHERE user = 'alice'", sealed);
      });
    const storedTokens = () =>
      runInDurableObject(s, async (_i, state) =>
        String(state.storage.sql.exec("SELECT tokens FROM connections WHERE user = 'alice'").one().tokens),
      );

    await put(await previous.seal("tokens", binding, tokens("sealed-before-rotation")));
    expect((await s.connection(team, "alice", "github"))?.tokens).toContain("sealed-before-rotation");
    expect((await storedTokens()).startsWith(`s1.${current.keyId}.`)).toBe(true);

    const lost = await unknown.seal("tokens", binding, tokens("sealed-under-unknown"));
    await put(lost);
    expect(await s.connection(team, "alice", "github")).toMatchObject({ status: "expired", tokens: null });
    expect((await s.listConnections(team, "alice"))[0]?.status).toBe("expired");
    expect(await storedTokens()).toBe(lost); // kept: setting the old key back recovers it
  });
});

describe("connect flows", () => {
  const discovery = JSON.stringify({ authorizationServerUrl: "https://as.example.com" });
  const started = async (team: string, user = "alice") => {
    const s = store(team);
    const flow = await s.openFlow(team, user, "github");
    const stateHash = await sha256(`state-of-${flow.id}`);
    await s.startFlow(team, flow.id, user, "github", { stateHash, verifier: "v".repeat(43), discovery });
    return { s, flow, stateHash };
  };

  it("live at least 10 minutes, and are taken once", async () => {
    const team = "cf-once";
    const { s, flow, stateHash } = await started(team);
    expect(flow.expiresAt - Date.now()).toBeGreaterThanOrEqual(10 * 60_000);
    expect(FLOW_TTL_MS).toBeGreaterThanOrEqual(10 * 60_000);
    const [first, second] = await Promise.all([
      s.takeFlow(team, flow.id, "alice", stateHash),
      s.takeFlow(team, flow.id, "alice", stateHash),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    expect(await s.takeFlow(team, flow.id, "alice", stateHash)).toEqual({ ok: false, reason: "unknown" });
  });

  it("refuse another user, another state or another server, changing nothing", async () => {
    const team = "cf-bound";
    const { s, flow, stateHash } = await started(team);
    expect(await s.takeFlow(team, flow.id, "bob", stateHash)).toEqual({ ok: false, reason: "wrong-user" });
    expect(await s.takeFlow(team, flow.id, "alice", await sha256("forged"))).toEqual({
      ok: false,
      reason: "wrong-state",
    });
    const restart = { stateHash, verifier: "w".repeat(43), discovery };
    expect(await s.startFlow(team, flow.id, "bob", "github", restart)).toEqual({
      ok: false,
      reason: "wrong-user",
    });
    expect(await s.startFlow(team, flow.id, "alice", "linear", restart)).toEqual({
      ok: false,
      reason: "wrong-server",
    });
    expect(await s.takeFlow(team, flow.id, "alice", stateHash)).toMatchObject({
      ok: true,
      server: "github",
      verifier: "v".repeat(43),
      discovery,
    });
  });

  it("refuse a flow never started, or past its expiry; the alarm deletes expired ones", async () => {
    const team = "cf-expiry";
    const s = store(team);
    const fresh = await s.openFlow(team, "alice", "github");
    expect(await s.takeFlow(team, fresh.id, "alice", await sha256("x"))).toEqual({
      ok: false,
      reason: "not-started",
    });
    const { flow, stateHash } = await started(team);
    await runInDurableObject(s, async (_i, state) => {
      state.storage.sql.exec("UPDATE flows SET expires_at = ? WHERE id = ?", Date.now() - 1, flow.id);
    });
    expect(await s.takeFlow(team, flow.id, "alice", stateHash)).toEqual({ ok: false, reason: "expired" });
    expect(await runDurableObjectAlarm(s)).toBe(true);
    const left = await runInDurableObject(s, async (_i, state) =>
      state.storage.sql
        .exec<{ id: string }>("SELECT id FROM flows")
        .toArray()
        .map((r) => r.id),
    );
    expect(left).toEqual([fresh.id]);
  });
});
