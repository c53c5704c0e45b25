/** Installs the Angular example's own packages when they are missing or older than its lock file. */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ANGULAR_ROOT = __dirname;

/** One package entry of a package-lock.json (v3) or of npm's node_modules/.package-lock.json. */
interface LockEntry {
  readonly version?: string;
  readonly optional?: boolean;
}

/**
 * Why examples/angular/node_modules does not match examples/angular/package-lock.json, or
 * `undefined` when it does. npm ci leaves node_modules/.package-lock.json (the "hidden lock file")
 * listing what it installed; every locked package must be there at its locked version, except
 * optional ones (packages for other platforms, which npm skips).
 *
 * @example
 * angularInstallProblem() // "examples/angular/node_modules is missing"
 */
export function angularInstallProblem(root: string = ANGULAR_ROOT): string | undefined {
  const hiddenLock = join(root, "node_modules", ".package-lock.json");
  if (!existsSync(hiddenLock)) return "examples/angular/node_modules is missing";
  if (!existsSync(join(root, "node_modules", ".bin", "ng"))) return "the Angular CLI is not installed in examples/angular";
  const locked = packagesOf(join(root, "package-lock.json"));
  const installed = packagesOf(hiddenLock);
  for (const [path, entry] of Object.entries(locked)) {
    if (path === "") continue; // the example itself
    const have = installed[path];
    if (have === undefined) {
      if (entry.optional === true) continue;
      return `${path} is locked at ${entry.version ?? "a version"} but not installed`;
    }
    if (have.version !== entry.version) return `${path} is installed at ${have.version ?? "no version"}, but the lock file says ${entry.version ?? "no version"}`;
  }
  return undefined;
}

/**
 * Runs `npm ci --prefix examples/angular` when {@link angularInstallProblem} finds one, and says
 * why first; does nothing when the install is current. The browser end-to-end suite calls it
 * before it builds the Angular page, so `npm ci && npm run test:e2e` works on a fresh clone.
 *
 * @example
 * ensureAngularInstalled(); // "installing examples/angular: examples/angular/node_modules is missing"
 */
export function ensureAngularInstalled(log: (line: string) => void = (line) => console.log(line)): void {
  const problem = angularInstallProblem();
  if (problem === undefined) return;
  log(`installing examples/angular (npm ci --prefix examples/angular): ${problem}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  execFileSync(npm, ["ci", "--prefix", ANGULAR_ROOT, "--no-audit", "--no-fund"], { stdio: ["ignore", "inherit", "inherit"] });
}

function packagesOf(file: string): Readonly<Record<string, LockEntry>> {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (typeof parsed !== "object" || parsed === null || !("packages" in parsed)) {
    throw new Error(`expected a lock file with "packages" (lockfileVersion 2 or 3) at ${file}, but it has none`);
  }
  const packages = parsed.packages;
  if (typeof packages !== "object" || packages === null) throw new Error(`expected "packages" in ${file} to be an object`);
  // A lock file's entries are npm's own JSON: the fields read here are strings and booleans when present.
  return packages as Record<string, LockEntry>;
}
