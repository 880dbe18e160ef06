import type { Context } from "hono";
import type { z } from "zod";
import { readAtMost } from "../../../shared/read-capped";
import type { AppEnv } from "./app-env";
import { requireConfig } from "./config";
import { HttpError, RPC } from "./errors";

/** Reads at most MAX_REQUEST_BYTES of body as JSON; 413 / 415 / 400 with what was wrong. */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const limit = requireConfig(c).maxRequestBytes;
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Content-Type must be application/json (got "${type || "none"}")`,
    );
  }
  const declared = Number(c.req.header("Content-Length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const text = await readLimited(c.req.raw, limit);
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new HttpError(
      400,
      "invalid_json",
      `The request body is not valid JSON: ${reason}`,
      {},
      RPC.parseError,
    );
  }
}

/** Validates with a zod schema; the 400 names each failing field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues
    .map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`)
    .join("; ");
  throw new HttpError(400, "invalid_request", `Invalid request body: ${detail}`, {}, RPC.invalidRequest);
}

async function readLimited(req: Request, limit: number): Promise<string> {
  if (!req.body) return "";
  const all = await readAtMost(req.body, limit, () => tooLarge(limit));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(all);
  } catch {
    throw new HttpError(400, "invalid_encoding", "The request body is not valid UTF-8", {}, RPC.parseError);
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    "body_too_large",
    `The request body is larger than ${limit} bytes (MAX_REQUEST_BYTES)`,
  );
}
