import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { toErrorResponse } from "../http/errors";
import { adminRoutes } from "../routes/admin";

/** The admin API, answered in this isolate: the dashboard's writes get its validation and its messages. */
const admin = new Hono<AppEnv>().route("/", adminRoutes).onError((err, c) => toErrorResponse(err, c));

export type AdminAnswer<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message: string };

/** One admin API call (`/teams/…`, `/approvals`, `/keys/…`) as the operator signed in with `token`. */
export async function adminCall<T>(
  c: Context<AppEnv>,
  token: string,
  method: "GET" | "PUT" | "POST" | "DELETE",
  path: string,
  body?: unknown,
): Promise<AdminAnswer<T>> {
  const res = await admin.request(
    path,
    {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    c.env,
    c.executionCtx,
  );
  if (res.status === 204) return { ok: true, status: 204, data: undefined as T };
  const data = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
  if (!res.ok) return { ok: false, status: res.status, message: data.error?.message ?? `HTTP ${res.status}` };
  return { ok: true, status: res.status, data: data as T };
}
