import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { RequestScope } from "../operations";
import { requireConfig } from "./config";

export function scopeOf(c: Context<AppEnv>): RequestScope {
  return {
    env: c.env,
    config: requireConfig(c),
    requestId: c.get("requestId"),
    team: "default",
    waitUntil: (p) => c.executionCtx.waitUntil(p),
  };
}
