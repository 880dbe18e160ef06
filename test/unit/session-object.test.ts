import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { SessionRecord } from "../../durable-objects/session/record";

const record = (id: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  createdAt: Date.now(),
  lastSeenAt: Date.now(),
  ttlSeconds: 60,
  protocolVersion: "2025-11-25",
  team: "default",
  ...over,
});

const stubFor = (id: string) => env.SESSIONS.get(env.SESSIONS.idFromName(id));

it("opens, touches and closes a session", async () => {
  const stub = stubFor("s1");
  expect(await stub.touch()).toBeNull();
  await stub.open(record("s1"));
  expect(await stub.touch()).toMatchObject({ id: "s1" });
  expect(await stub.close()).toBe(true);
  expect(await stub.close()).toBe(false);
  expect(await stub.touch()).toBeNull();
});

it("treats an idle session past its TTL as gone", async () => {
  const stub = stubFor("s2");
  await stub.open(record("s2"));
  await runInDurableObject(stub, async (_instance, state) => {
    await state.storage.put("session", record("s2", { lastSeenAt: Date.now() - 120_000 }));
  });
  expect(await stub.touch()).toBeNull();
});

it("deletes an expired session when its alarm fires", async () => {
  const stub = stubFor("s5");
  await stub.open(record("s5"));
  await runInDurableObject(stub, async (_instance, state) => {
    await state.storage.put("session", record("s5", { lastSeenAt: Date.now() - 120_000 }));
    await state.storage.setAlarm(Date.now() + 60_000);
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  await runInDurableObject(stub, async (_instance, state) => {
    expect(await state.storage.get("session")).toBeUndefined();
  });
});

it("keeps a session whose alarm fires before it has expired, and re-arms", async () => {
  const stub = stubFor("s3");
  await stub.open(record("s3"));
  // Set in the future and run by the test, not left for the runtime to fire while the test runs
  // (an alarm due now raced the test's own run: under Node 22 getAlarm() once read null).
  await runInDurableObject(stub, async (_instance, state) => {
    await state.storage.setAlarm(Date.now() + 5_000);
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  await runInDurableObject(stub, async (_instance, state) => {
    expect(await state.storage.get("session")).toMatchObject({ id: "s3" });
    expect(await state.storage.getAlarm()).toBeGreaterThan(Date.now());
  });
});
