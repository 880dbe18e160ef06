import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Files whose tests restart the sandbox host (and so reload the gateway's wrangler): run last. */
const LAST = ["stuck-host.e2e.test.ts"];

/** The files in name order, those of LAST at the end: the same order on every machine. */
class StackSafeOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const last = (f: TestSpecification) => LAST.some((name) => f.moduleId.endsWith(`/${name}`));
    return [...files].sort(
      (a, b) => Number(last(a)) - Number(last(b)) || a.moduleId.localeCompare(b.moduleId),
    );
  }
}

// End-to-end: a real `wrangler dev` (started once in global-setup) driven over HTTP by the official
// MCP SDK client, as Claude Code or the Inspector would.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    setupFiles: ["test/e2e/no-keep-alive.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    sequence: { sequencer: StackSafeOrder },
  },
});
