/** The command line of `npm run serve` (examples/task-board/serve.ts): which store the endpoint keeps its threads in. */

/**
 * What `npm run serve -- [--redis <url>]` asked for: no store (runs live as long as their
 * response, as the endpoint always served), or threads kept in the Redis at `url`
 * (`redisStore`, docs/durability.md "Redis"), so that several `serve` processes on one Redis
 * serve the same threads.
 *
 * @example
 * const args: ServeArgs = { kind: "redis", url: "redis://127.0.0.1:6379" };
 */
export type ServeArgs = { readonly kind: "plain" } | { readonly kind: "redis"; readonly url: string };

/**
 * The usage line `serve` prints with a refused command line.
 *
 * @example
 * process.stderr.write(SERVE_USAGE);
 */
export const SERVE_USAGE = "usage: npm run serve -- [--redis <redis://host:port>]   (environment: PORT, default 8000; HOST, default 127.0.0.1)\n";

/**
 * Reads the arguments after the script: nothing, `--redis <url>` or `--redis=<url>`, where `url`
 * is a `redis:` or `rediss:` URL. Anything else is an error that says what was expected and what
 * arrived (the caller prints it with `SERVE_USAGE`).
 *
 * @example
 * parseServeArgs(["--redis", "redis://127.0.0.1:6379"]); // { kind: "redis", url: "redis://127.0.0.1:6379" }
 * parseServeArgs(["--redis"]);                         // { kind: "error", message: "expected a Redis URL after --redis, but the command line ends there" }
 */
export function parseServeArgs(argv: readonly string[]): ServeArgs | { readonly kind: "error"; readonly message: string } {
  let url: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let value: string | undefined;
    if (arg === "--redis") {
      value = argv[i + 1];
      if (value === undefined || value.startsWith("--"))
        return { kind: "error", message: "expected a Redis URL after --redis, but the command line ends there" };
      i++;
    } else if (arg.startsWith("--redis=")) value = arg.slice("--redis=".length);
    else return { kind: "error", message: `expected --redis <url> or nothing, but got ${JSON.stringify(arg)}` };
    if (url !== undefined) return { kind: "error", message: `expected --redis once, but got it twice (${JSON.stringify(url)} and ${JSON.stringify(value)})` };
    const refusal = checkRedisUrl(value);
    if (refusal !== undefined) return { kind: "error", message: refusal };
    url = value;
  }
  return url === undefined ? { kind: "plain" } : { kind: "redis", url };
}

function checkRedisUrl(value: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return `expected a Redis URL such as redis://127.0.0.1:6379 after --redis, but got ${JSON.stringify(value)}`;
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    return `expected a redis: or rediss: URL after --redis, but got the ${parsed.protocol} URL ${JSON.stringify(value)}`;
  }
  return undefined;
}
