import { HttpError } from "../http/errors";

/** An admin action's answer for a page: its value, or the refusal's status and message. */
export type AdminAnswer<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/**
 * One admin action (routes/admin-service.ts, the functions the admin API calls, with its validation
 * and its messages), for an operator the dashboard signed in. A refusal (HttpError) becomes the
 * answer; anything else is a bug and is thrown.
 */
export async function adminCall<T>(action: () => Promise<T>): Promise<AdminAnswer<T>> {
  try {
    return { ok: true, data: await action() };
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}
