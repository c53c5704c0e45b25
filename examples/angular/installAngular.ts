/**
 * Installs an Angular package folder (examples/angular, test/angular) with the library as users
 * get it: `npm run build`, `npm pack` into `.pack/agui-rx.tgz` (git-ignored), which the folder's
 * package.json names as `file:../../.pack/agui-rx.tgz`; then `npm ci` when the folder's packages
 * are missing or older than its lock file, else only the tarball's contents refreshed.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ensureBuilt, ROOT } from "../../test/dist/ensureBuilt";

const ANGULAR_ROOT = __dirname;

/** Where the packed library lands; the Angular folders' package.json files name it. */
export const PACKED_LIBRARY = join(ROOT, ".pack", "agui-rx.tgz");

/** Beside the installed packages: the digest of the tarball `node_modules/agui-rx` was unpacked from. */
const STAMP = join("node_modules", ".agui-rx.tgz.sha256");

/** One package entry of a package-lock.json (v3) or of npm's node_modules/.package-lock.json. */
interface LockEntry {
  readonly version?: string;
  readonly optional?: boolean;
}

/**
 * Why `root`'s node_modules does not match its package-lock.json, or `undefined` when it does.
 * npm ci leaves node_modules/.package-lock.json (the "hidden lock file") listing what it
 * installed; every locked package must be there at its locked version, except optional ones
 * (packages for other platforms, which npm skips). `cli` names a binary the folder needs.
 *
 * @example
 * angularInstallProblem() // "examples/angular/node_modules is missing"
 */
export function angularInstallProblem(root: string = ANGULAR_ROOT, label = "examples/angular", cli: string | undefined = "ng"): string | undefined {
  const hiddenLock = join(root, "node_modules", ".package-lock.json");
  if (!existsSync(hiddenLock)) return `${label}/node_modules is missing`;
  if (cli !== undefined && !existsSync(join(root, "node_modules", ".bin", cli))) return `the Angular CLI is not installed in ${label}`;
  const locked = packagesOf(join(root, "package-lock.json"));
  const installed = packagesOf(hiddenLock);
  for (const [path, entry] of Object.entries(locked)) {
    if (path === "") continue; // the folder itself
    const have = installed[path];
    if (have === undefined) {
      if (entry.optional === true) continue;
      return `${path} is locked at ${entry.version ?? "a version"} but not installed`;
    }
    if (have.version !== entry.version)
      return `${path} is installed at ${have.version ?? "no version"}, but the lock file says ${entry.version ?? "no version"}`;
  }
  return undefined;
}

/**
 * Builds the library when `dist` is stale and packs it into {@link PACKED_LIBRARY} (the tarball
 * `npm publish` would upload); returns the tarball's sha256.
 *
 * @example
 * const digest = packLibrary(); // ".pack/agui-rx.tgz" is current
 */
export function packLibrary(): string {
  ensureBuilt();
  const into = mkdtempSync(join(ROOT, ".pack-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const [result] = JSON.parse(execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", into], { cwd: ROOT, encoding: "utf8" })) as {
      filename: string;
    }[]; // npm's documented --json shape
    if (result === undefined) throw new Error("expected npm pack to report the tarball it wrote, but it reported none");
    mkdirSync(join(ROOT, ".pack"), { recursive: true });
    renameSync(join(into, result.filename), PACKED_LIBRARY); // atomic: a reader never sees half a tarball
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
  return createHash("sha256").update(readFileSync(PACKED_LIBRARY)).digest("hex");
}

/**
 * Packs the library, then makes `root`'s node_modules current: `npm ci` when
 * {@link angularInstallProblem} finds a problem (saying why first), else the freshly packed
 * library unpacked over `node_modules/agui-rx` when it differs from the one installed (what npm
 * does with a `file:` tarball; the lock file carries no integrity for it, since every build packs
 * new bytes). The browser suite calls it for examples/angular and the Angular suite for
 * test/angular, so `npm ci && npm run test:e2e` works on a fresh clone.
 *
 * @example
 * ensureAngularInstalled(); // "installing examples/angular: examples/angular/node_modules is missing"
 */
export function ensureAngularInstalled(
  log: (line: string) => void = (line) => console.log(line),
  root: string = ANGULAR_ROOT,
  cli: string | undefined = "ng",
): void {
  const digest = packLibrary();
  const label = relative(ROOT, root);
  const problem = angularInstallProblem(root, label, cli);
  if (problem !== undefined) {
    log(`installing ${label} (npm ci --prefix ${label}): ${problem}`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["ci", "--prefix", root, "--no-audit", "--no-fund"], { stdio: ["ignore", "inherit", "inherit"] });
  } else if (readStamp(root) !== digest) {
    log(`refreshing ${label}/node_modules/agui-rx from ${relative(ROOT, PACKED_LIBRARY)}`);
    const installed = join(root, "node_modules", "agui-rx");
    rmSync(installed, { recursive: true, force: true });
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", PACKED_LIBRARY, "-C", installed, "--strip-components=1"]);
  }
  writeFileSync(join(root, STAMP), digest);
}

function readStamp(root: string): string | undefined {
  const file = join(root, STAMP);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
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
