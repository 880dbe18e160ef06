import { expect, it } from "vitest";
import { runConformance } from "../../scripts/conformance/run.mjs";
import { conformanceNode } from "../../scripts/lib/toolchain.mjs";
import { TEST_API_KEY } from "../helpers/keys";
import { gatewayUrl } from "./client";

// The official MCP conformance suite against this stack, in both protocol eras (2025-11-25 and
// 2026-07-28) and its extension scenarios (`npm run conformance` runs it against a stack of its own
// on current wrangler). Its CLI needs Node 22: scripts/node22-conformance is installed on
// first use (npm ci of ~200 MB, minutes on a slow machine).
it("passes every MCP conformance scenario that applies, and accounts for the others", async () => {
  const node = conformanceNode();
  const { ok, lines } = await runConformance({
    gatewayUrl: gatewayUrl(),
    key: TEST_API_KEY,
    node,
    print: () => {},
  });
  expect(ok, lines.join("\n")).toBe(true);
}, 900_000);
