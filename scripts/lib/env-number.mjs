// The scripts' tuning knobs read from the environment (DEV_STARTUP_SECONDS, SANDBOX_HOST_MISSES,
// GATEWAY_MISSES, TEST_SUITE_MINUTES): unset or empty gives the default; anything but a positive
// number is refused by name rather than silently replaced.

/**
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
export function positiveNumberEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, not "${raw}"`);
  }
  return value;
}
