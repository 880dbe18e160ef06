import type { SessionAnswer, SessionErrorName } from "../../shared/contract/session";

export const ok = (value: unknown): SessionAnswer => ({ ok: true, value });

export function fail(name: SessionErrorName, message: string, path?: string): SessionAnswer {
  return { ok: false, error: path === undefined ? { name, message } : { name, message, path } };
}

export const sessionNotFound = (): SessionAnswer =>
  fail("SessionNotFoundError", "the session does not exist, has ended or has expired");
