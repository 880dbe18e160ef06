import type { SandboxBridgeApi, SandboxOutcome } from "../../shared/contract/sandbox";

const encoder = new TextEncoder();

/**
 * A cut result kept whole as a file of the execution's session (`results/<time>.json`), written
 * through the bridge like any workspace.write (counted, within the session's quota); the outcome's
 * truncation names the file, or a warning says why there is none.
 */
export async function keepWholeResult(
  outcome: SandboxOutcome,
  wholeJson: string,
  bridge: SandboxBridgeApi,
): Promise<SandboxOutcome> {
  if (!outcome.truncation) return outcome;
  const path = `results/${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomUUID().slice(0, 8)}.json`;
  const written = await bridge.session({ op: "workspace.write", path, data: encoder.encode(wholeJson) });
  if (written.ok) return { ...outcome, truncation: { ...outcome.truncation, file: path } };
  const why = `${written.error.name}: ${written.error.message}`.slice(0, 200);
  return {
    ...outcome,
    warnings: [...(outcome.warnings ?? []), `The whole result could not be kept (${why})`].slice(0, 6),
  };
}
