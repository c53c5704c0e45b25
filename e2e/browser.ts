/** Starts Debian's headless chromium through playwright-core (no downloaded browser builds). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** The system chromium: `$CHROMIUM` if set, else what `which chromium` prints. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("expected a `chromium` on PATH (apt-get install -y chromium); found none");
  }
}

/** A launched browser (one persistent context on a fresh profile) and the way to close it. */
export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** The browser's time zone and locale: fixed, so what the page's `get_local_time` tool answers is known (and not this machine's). */
export const BROWSER_TIME_ZONE = "Pacific/Auckland";
export const BROWSER_LOCALE = "en-NZ";

/**
 * Launches headless chromium with a fresh profile and without background network, sync or
 * component updates, so a run on a machine without internet behaves like one with. The time
 * zone and locale are {@link BROWSER_TIME_ZONE} and {@link BROWSER_LOCALE}.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "agui-rx-chromium-"));
  // playwright takes the profile directory as launchPersistentContext's first argument rather than
  // as a `--user-data-dir` flag; the effect is the flag's.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1200, height: 900 },
    timezoneId: BROWSER_TIME_ZONE,
    locale: BROWSER_LOCALE,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
