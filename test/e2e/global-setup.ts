import type { TestProject } from "vitest/node";
import { startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { TEST_API_KEY } from "../helpers/keys";

declare module "vitest" {
  export interface ProvidedContext {
    gatewayUrl: string;
  }
}

interface RunningWrangler {
  url: string;
  stop(): Promise<void>;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const wrangler: RunningWrangler = await startWranglerDev({
    vars: { DEV_API_KEY: TEST_API_KEY },
    persist: "temp",
  });
  project.provide("gatewayUrl", wrangler.url);
  return () => wrangler.stop();
}
