import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/**
 * Debian's Chromium, headless, with a fresh profile (the flags this machine needs: no sandbox, no
 * GPU, no background traffic): the browser the page tests drive.
 */
export async function launchChromium(
  profile: string,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const executablePath = execFileSync("bash", ["-c", "command -v chromium || true"]).toString().trim();
  if (!executablePath)
    throw new Error("chromium is not installed: apt-get install -y chromium (.ci/run does)");
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), `${profile}-`)), {
    executablePath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
    viewport,
  });
  context.setDefaultTimeout(10_000);
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}
