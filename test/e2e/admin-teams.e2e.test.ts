import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/root.mjs";
import { TEST_ADMIN_TOKEN } from "../helpers/keys";
import { gatewayUrl } from "./client";

// `npm run admin -- teams list` and `teams show default` against the real gateway, found as the
// banner of `PORT=… npm run dev` tells a user to reach it: by PORT alone, no --url.
const TEAM = "e2e-listed";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function admin(args: string[]): Promise<Run> {
  const port = new URL(gatewayUrl()).port;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, "scripts/admin.mjs"), ...args],
      {
        env: { ...process.env, ADMIN_TOKEN: TEST_ADMIN_TOKEN, GATEWAY_URL: "", PORT: port },
        timeout: 50_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

afterAll(async () => {
  await admin(["teams", "delete", TEAM]);
});

describe("npm run admin -- teams list / teams show default", () => {
  it("lists the stored teams and says what team default is", async () => {
    expect(await admin(["teams", "create", TEAM])).toMatchObject({ code: 0 });

    const listed = await admin(["teams", "list"]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toMatch(/^name$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${TEAM}$`, "m"));
    expect(listed.stdout).toContain("Team default is the configuration's, not a stored team");

    const json = await admin(["teams", "list", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).teams).toContainEqual({ name: TEAM });
  });

  it("explains team default instead of failing when it has no stored record", async () => {
    const shown = await admin(["teams", "show", "default"]);
    expect(shown).toMatchObject({ code: 0, stderr: "" });
    expect(shown.stdout).toContain("Team default is the configuration's, not a stored team");
    expect(shown.stdout).toContain("DEV_API_KEY");
    expect(shown.stdout).toContain("MCP_SERVERS");

    // --json passes the server's answer on: no record, exit 1.
    const json = await admin(["teams", "show", "default", "--json"]);
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/HTTP 404 not_found: No stored team "default": .*configuration's/);
  });
});
