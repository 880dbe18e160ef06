import type { MiddlewareHandler } from "hono";
import { loadConfig } from "../config";
import { sameSecret } from "../context/api-key";
import { adminToken } from "../env";
import { PhaseClock } from "../timing/clock";
import { storageCalls } from "../timing/storage-meter";
import type { AppEnv } from "./app-env";

/**
 * With PHASE_TIMING=on (never in wrangler.toml; `npm run bench` sets it), a request whose
 * `X-Phase-Timing` header is the ADMIN_TOKEN gets a `Server-Timing` header with its phases, and
 * `X-Storage-Calls`: the KV and Durable Object calls this isolate made so far (timing/storage-meter.ts). Any other
 * request, and every request while PHASE_TIMING is off, is served exactly as without this.
 */
export const phaseTiming: MiddlewareHandler<AppEnv> = async (c, next) => {
  const asked = c.req.header("X-Phase-Timing");
  const loaded = loadConfig(c.env);
  const admin = adminToken(c.env);
  if (asked === undefined || !loaded.ok || !loaded.config.phaseTiming || !admin) return next();
  if (!(await sameSecret(asked, admin))) return next();
  const clock = new PhaseClock(PhaseClock.parseRepeats(c.req.header("X-Phase-Repeat")));
  c.set("clock", clock);
  await next();
  c.res.headers.set("Server-Timing", clock.header());
  c.res.headers.set("X-Storage-Calls", JSON.stringify(storageCalls()));
};
