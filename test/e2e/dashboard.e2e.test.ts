import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium";
import { TEST_ADMIN_TOKEN } from "../helpers/keys";
import { connect, execute, gatewayUrl, restExecute } from "./client";

// The operator dashboard in a real Chromium (Debian's `chromium`, driven by playwright-core): the
// flows an operator runs, and what a hostile team, tool or skill name must not do to the page. The
// same run takes a screenshot of each page: into node_modules/.cache/dashboard-screenshots, or, with
// DASHBOARD_SCREENSHOTS_DIR=docs/screenshots, over the README's (so a test run leaves the tree clean).
const SHOTS = join(
  import.meta.dirname,
  "../..",
  process.env.DASHBOARD_SCREENSHOTS_DIR ?? "node_modules/.cache/dashboard-screenshots",
);
const XSS = `<img src=x onerror="window.__xss=1">`;

let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ context, page } = await launchChromium("dash-chromium", { width: 1100, height: 760 }));
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await context?.close();
});

const url = (path: string) => `${gatewayUrl()}${path}`;

async function signIn(p: Page = page) {
  await p.goto(url("/dashboard/sign-in"));
  await p.getByLabel("Admin token").fill(TEST_ADMIN_TOKEN);
  await p.getByRole("button", { name: "Sign in" }).click();
  await p.waitForURL(url("/dashboard"));
}

async function shot(name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe("operator dashboard in Chromium", () => {
  it("refuses a wrong token, signs in with ADMIN_TOKEN, sets the cookie's flags and a strict CSP", async () => {
    await page.goto(url("/dashboard"));
    expect(page.url()).toBe(url("/dashboard/sign-in"));
    await page.getByLabel("Admin token").fill("not-the-token");
    const refused = page.waitForResponse(
      (r) => r.url() === url("/dashboard/sign-in") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Sign in" }).click();
    expect((await refused).status()).toBe(401);
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("not this gateway's ADMIN_TOKEN");
    await signIn();
    const [cookie] = (await context.cookies()).filter((c) => c.name === "dash_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", secure: false, path: "/dashboard" });
    expect(cookie?.value).not.toContain(TEST_ADMIN_TOKEN);
    const res = await page.goto(url("/dashboard"));
    const csp = res?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res?.headers()["x-frame-options"]).toBe("DENY");
    expect(page.url()).not.toContain(TEST_ADMIN_TOKEN);
    expect(await page.content()).not.toContain(TEST_ADMIN_TOKEN);
  });

  it("creates a team and a key, which an MCP client uses; its executions show in usage and audit; revoked, it is refused", async () => {
    await signIn();
    await page.goto(url("/dashboard/teams"));
    await page.getByLabel("Name", { exact: true }).fill("dash-team");
    await page.getByLabel(/Configuration/).fill(JSON.stringify({ servers: { demo: { service: "DEMO" } } }));
    await page.getByRole("button", { name: "Create team" }).click();
    await page.waitForURL(/\/dashboard\/teams\/dash-team/);
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Team created");
    await page.getByLabel("New key's name").fill("laptop");
    await page.getByRole("button", { name: "Make key" }).click();
    const key = (await page.locator("#new-key").textContent())?.trim() ?? "";
    expect(key).toMatch(/^\S{20,}$/);
    expect(await page.locator("#claude-line").textContent()).toContain(`Authorization: Bearer ${key}`);
    await shot("new-key");

    const { client } = await connect({ Authorization: `Bearer ${key}` });
    const ran = await execute(client, {
      code: "const t = await tools.demo.list_tickets({ limit: 1 }); return t.tickets.length;",
    });
    expect(ran.result).toBe(1);
    await client.close();

    // The audit log is written behind the answer: pages are reloaded until the execution is in.
    await reloadUntil("/dashboard/teams/dash-team/usage", () =>
      page.getByRole("table", { name: "Per day" }).count(),
    );
    expect(await page.getByRole("table", { name: "Per day" }).textContent()).toMatch(/\d{4}-\d{2}-\d{2}\s*1/);
    expect(await page.getByRole("table", { name: "Top tools" }).textContent()).toContain("demo.list_tickets");
    await shot("usage");
    await page.goto(url("/dashboard/audit?team=dash-team&kind=execute"));
    expect(await page.getByRole("table", { name: "Audit of dash-team" }).textContent()).toContain("execute");
    await page.goto(url("/dashboard/audit?team=dash-team&tool=demo.list_tickets"));
    expect(await page.getByRole("table", { name: "Audit of dash-team" }).textContent()).toContain(
      "demo.list_tickets",
    );
    await shot("audit");

    await page.goto(url("/dashboard/teams/dash-team"));
    await shot("team");
    await page.getByRole("link", { name: "Revoke laptop" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Key revoked");
    const refused = await restExecute({ code: "return 1" }, { Authorization: `Bearer ${key}` });
    expect(refused.status).toBe(401);
  });

  it("shows the config's validation errors as the admin API words them", async () => {
    await signIn();
    await page.goto(url("/dashboard/teams/dash-team"));
    await page.getByLabel(/servers, allow, deny/).fill(JSON.stringify({ engine: "v8" }));
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain('expected "quickjs" or "isolate"');
    await page.getByLabel(/servers, allow, deny/).fill("{ not json");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not JSON");
  });

  it("answers a pending approval while the execution waits", async () => {
    await signIn();
    const key = await keyFor("dash-approvals");
    const running = restExecute(
      {
        code: `const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 1 });
await tools.demo.update_ticket({ id: tickets[0].id, status: "pending" });
return "updated";`,
        timeoutMs: 60_000,
      },
      { Authorization: `Bearer ${key}` },
    );
    await expect
      .poll(
        async () => {
          await page.goto(url("/dashboard/approvals?team=dash-approvals"));
          return page.getByRole("table", { name: "Waiting" }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await page.getByRole("table", { name: "Waiting" }).textContent()).toContain("demo.update_ticket");
    await shot("approvals");
    await page.getByRole("button", { name: "Approve demo.update_ticket" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Approved");
    expect((await running).body.result).toBe("updated");
    expect(await page.getByRole("table", { name: "Recent decisions" }).textContent()).toContain("approved");
  }, 60_000);

  it("shows hostile text as text: a team name, a tool name made up by code, a tool filter", async () => {
    await signIn();
    await page.goto(url("/dashboard/teams"));
    await page.getByLabel("Name", { exact: true }).evaluate((el) => el.removeAttribute("pattern"));
    await page.getByLabel("Name", { exact: true }).fill(XSS);
    await page.getByRole("button", { name: "Create team" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(XSS);
    // A tool name the agent's code made up: the audit keeps "(invalid name)" for it, never the text.
    const key = await keyFor("dash-hostile");
    const called = await restExecute(
      { code: `try { await callTool(${JSON.stringify(`demo.${XSS}`)}, {}); } catch (e) { return e.name; }` },
      { Authorization: `Bearer ${key}` },
    );
    expect(called.body.result).toMatch(/Error$/);
    const audit = page.getByRole("table", { name: "Audit of dash-hostile" });
    await reloadUntil("/dashboard/audit?team=dash-hostile&kind=tool_call", () => audit.count());
    expect(await audit.textContent()).toContain("(invalid name)");
    // A stored upstream URL that closes the textarea it is shown in, then injects markup.
    const breakout = `https://x.invalid/</textarea>${XSS}`;
    await page.goto(url("/dashboard/teams/dash-hostile"));
    await page.getByLabel(/servers, allow, deny/).fill(JSON.stringify({ servers: { x: { url: breakout } } }));
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Configuration saved");
    expect(await page.getByLabel(/servers, allow, deny/).inputValue()).toContain(JSON.stringify(breakout));
    expect(await page.locator("main img").count()).toBe(0);
    await page.goto(url(`/dashboard/audit?team=dash-team&tool=${encodeURIComponent(XSS)}`));
    expect(await page.getByLabel("Tool", { exact: true }).inputValue()).toBe(XSS);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate("typeof window.__xss")).toBe("undefined");
  });

  it("ends a session and deletes a skill", async () => {
    await signIn();
    const key = await keyFor("dash-sessions");
    const auth = { Authorization: `Bearer ${key}` };
    const made = await fetch(url("/v1/sessions"), { method: "POST", headers: auth });
    const { sessionId } = (await made.json()) as { sessionId: string };
    await restExecute({ code: "await state.set('k', 1); return 1", sessionId }, auth);
    const end = page.getByRole("button", { name: `End session ${sessionId.slice(0, 8)}` });
    await reloadUntil("/dashboard/teams/dash-sessions/sessions", () => end.count());
    await shot("sessions");
    await end.click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Session ended");
    expect((await fetch(url(`/v1/sessions/${sessionId}`), { headers: auth })).status).toBe(404);

    const saved = await restExecute(
      {
        code: `return await skills.save({ name: "xss_skill", description: ${JSON.stringify(`desc ${XSS}`)}, code: ${JSON.stringify(`// ${XSS}\nreturn 1;`)} });`,
      },
      auth,
    );
    expect(saved.body.error).toBeUndefined();
    await page.goto(url("/dashboard/teams/dash-sessions/skills"));
    expect(await page.getByRole("table", { name: "Skills of dash-sessions" }).textContent()).toContain(
      `desc ${XSS}`,
    );
    await page.getByRole("link", { name: "xss_skill" }).click();
    expect(await page.locator("pre").first().textContent()).toContain(XSS);
    await shot("skill");
    await page.getByLabel(/Delete every version/).check();
    await page.getByRole("button", { name: "Delete skill xss_skill" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Skill deleted");
    expect((await fetch(url("/v1/skills/xss_skill"), { headers: auth })).status).toBe(404);
    expect(await page.evaluate("typeof window.__xss")).toBe("undefined");
  }, 60_000);

  it("refuses a write without the CSRF token, and a signed-out cookie", async () => {
    await signIn();
    // The browser context's own cookie (context.request sends it), a form without the token.
    const noToken = await context.request.post(url("/dashboard/teams/dash-team/keys"), {
      form: { name: "forged" },
      maxRedirects: 0,
    });
    expect(noToken.status()).toBe(403);
    const wrongToken = await context.request.post(url("/dashboard/teams/dash-team/keys"), {
      form: { name: "forged", csrf: "0".repeat(32) },
      maxRedirects: 0,
    });
    expect(wrongToken.status()).toBe(403);
    const [cookie] = (await context.cookies()).filter((c) => c.name === "dash_session");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(url("/dashboard/sign-in"));
    const replay = await fetch(url("/dashboard"), {
      headers: { Cookie: `dash_session=${cookie?.value}` },
      redirect: "manual",
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/dashboard/sign-in");
  });

  it("fits a phone's width and is reachable by keyboard", async () => {
    await signIn();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/dashboard", "/dashboard/teams/dash-team", "/dashboard/audit?team=dash-team"]) {
      await page.goto(url(path));
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow, path).toBeLessThanOrEqual(1);
    }
    await page.goto(url("/dashboard"));
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("gateway dashboard");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Overview");
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.goto(url("/dashboard"));
    await shot("overview"); // last: with the executions the tests above ran
  });
});

/** Loads `path` until `count()` finds something (at most ~15 s). */
async function reloadUntil(path: string, count: () => Promise<number>) {
  await expect
    .poll(
      async () => {
        await page.goto(url(path));
        return count();
      },
      { timeout: 15_000, interval: 500 },
    )
    .toBeGreaterThan(0);
}

/** A team with the demo upstream and one key, made through the dashboard's own forms. */
async function keyFor(team: string): Promise<string> {
  await page.goto(url("/dashboard/teams"));
  await page.getByLabel("Name", { exact: true }).fill(team);
  await page.getByLabel(/Configuration/).fill(JSON.stringify({ servers: { demo: { service: "DEMO" } } }));
  await page.getByRole("button", { name: "Create team" }).click();
  await page.waitForURL(new RegExp(`/dashboard/teams/${team}`));
  await page.getByLabel("New key's name").fill("e2e");
  await page.getByRole("button", { name: "Make key" }).click();
  return (await page.locator("#new-key").textContent())?.trim() ?? "";
}
