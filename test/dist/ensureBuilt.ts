/**
 * Builds the package once when a test needs `dist` and it is missing, incomplete or older than a
 * file under `src/` (a stale build would test yesterday's declarations). CI runs
 * `npm run build` before `npm test`; locally the first test file that needs it builds it, under
 * `flock`, so test files running in parallel never build into the same folder at once.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");

interface PackageJson {
  readonly name: string;
  readonly exports: Record<string, string | Record<string, string>>;
  readonly bin?: Record<string, string>;
  readonly typesVersions?: Record<string, Record<string, readonly string[]>>;
  readonly files?: readonly string[];
  readonly license?: string;
}

/** The package.json as written (test-only: read from our own file). */
export const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as PackageJson;

/** Every built file package.json names: the exports map's targets and the bins. */
export const builtFiles: readonly string[] = [
  ...Object.values(pkg.exports).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target))),
  ...Object.values(pkg.bin ?? {}),
].filter((file) => file.startsWith("./dist/"));

/**
 * A shell test that holds when every built file exists and no file under `src/` is newer than it.
 * Run by `sh` so the same check runs before and under the lock.
 */
const buildIsCurrent = builtFiles
  .map((file) => `test -f ${JSON.stringify(file)} && test -z "$(find src -type f -newer ${JSON.stringify(file)} -print -quit)"`)
  .join(" && ");

/** Runs `npm run build` unless the build is current; one build at a time across jest workers. */
export function ensureBuilt(): void {
  try {
    execFileSync("sh", ["-c", buildIsCurrent], { cwd: ROOT, stdio: "ignore" });
    return;
  } catch {
    // Missing or stale: build under the lock below.
  }
  const lock = path.join(tmpdir(), `agui-rx-build-${Buffer.from(ROOT).toString("hex").slice(-24)}.lock`);
  // Checked again under the lock: a worker that waited finds the build another one made.
  execFileSync("flock", [lock, "sh", "-c", `(${buildIsCurrent}) || npm run build`], { cwd: ROOT, stdio: "ignore" });
}
