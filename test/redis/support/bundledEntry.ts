/**
 * A TypeScript entry bundled once per test worker with esbuild, for a child process started with
 * `node` (it starts in a fraction of a second, where ts-node would take seconds): the
 * multi-instance servers and the cluster suite's producer.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const bundles = new Map<string, Promise<string>>();

/**
 * Bundles `entry` into `dir` as `<name>-<pid>.cjs` (once per process and entry), `redis` left
 * external so that the bundle's `require("redis")` finds node_modules: `dir` must lie inside the
 * repository. Resolves with the file to run.
 *
 * @example
 * const file = await bundledEntry(join(__dirname, "instanceMain.ts"), INSTANCE_BUNDLES, "instance");
 */
export function bundledEntry(entry: string, dir: string, name: string): Promise<string> {
  let bundled = bundles.get(entry);
  if (bundled === undefined) {
    bundled = (async () => {
      mkdirSync(dir, { recursive: true });
      const outfile = join(dir, `${name}-${process.pid}.cjs`);
      await build({ entryPoints: [entry], bundle: true, platform: "node", target: "node18", format: "cjs", outfile, external: ["redis"], logLevel: "error" });
      return outfile;
    })();
    bundles.set(entry, bundled);
  }
  return bundled;
}
