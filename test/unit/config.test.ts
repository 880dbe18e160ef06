import { describe, expect, it } from "vitest";
import { loadConfig } from "../../workers/gateway/config";
import type { GatewayEnv } from "../../workers/gateway/env";

const envWith = (vars: Record<string, string>) => ({ ...vars }) as unknown as GatewayEnv;

describe("loadConfig", () => {
  it("uses defaults for unset and empty variables", () => {
    const result = loadConfig(envWith({ EXEC_TIMEOUT_MS: "" }));
    expect(result).toMatchObject({
      ok: true,
      config: {
        limits: { timeoutMs: 30_000, maxOutputChars: 24_000 },
        allowedOrigins: [],
        devApiKey: undefined,
      },
    });
  });

  it("names the variable and what was wrong", () => {
    const result = loadConfig(envWith({ EXEC_TIMEOUT_MS: "soon", EXEC_MAX_OUTPUT_CHARS: "5" }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toEqual([
        "EXEC_TIMEOUT_MS: expected a whole number between 100 and 900000",
        "EXEC_MAX_OUTPUT_CHARS: must be at least 1000",
      ]);
    }
  });

  it("rejects a default timeout above the maximum", () => {
    const result = loadConfig(envWith({ EXEC_TIMEOUT_MS: "5000", EXEC_MAX_TIMEOUT_MS: "1000" }));
    expect(result).toEqual({
      ok: false,
      problems: ["EXEC_TIMEOUT_MS: must not be above EXEC_MAX_TIMEOUT_MS"],
    });
  });

  it("rejects a short DEV_API_KEY and parses the origin list", () => {
    expect(loadConfig(envWith({ DEV_API_KEY: "short" }))).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^DEV_API_KEY: /)],
    });
    expect(loadConfig(envWith({ ALLOWED_ORIGINS: "https://a.example/, https://b.example" }))).toMatchObject({
      ok: true,
      config: { allowedOrigins: ["https://a.example", "https://b.example"] },
    });
  });
});
