import type { Context } from "hono";
import { type Config, loadConfig } from "../config";
import type { AppEnv } from "./app-env";
import { HttpError } from "./errors";

/** The validated configuration, or 503 naming each bad variable. */
export function requireConfig(c: Context<AppEnv>): Config {
  const loaded = loadConfig(c.env);
  if (!loaded.ok) {
    throw new HttpError(503, "misconfigured", `The gateway is misconfigured: ${loaded.problems.join("; ")}`);
  }
  return loaded.config;
}
