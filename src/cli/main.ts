/**
 * The `agui-rx` command (package.json `bin`, built to `dist/cli/agui-rx.cjs`): `agui-rx check <url>
 * [message]` runs one run against an AG-UI endpoint and reports every finding (docs/check.md).
 * Exit code: 0 no findings, 1 findings, 2 bad usage.
 */
import { checkEndpoint, type CheckOptions } from "./checkEndpoint";
import { exitCodeOf } from "./Finding";
import { formatReport } from "./formatReport";

export const USAGE = `usage: agui-rx check <url> [message] [--header "Name: value"]... [--timeout <seconds>] [--json]

Runs one run against an AG-UI endpoint (POST <url>, one user message, default "Hello") and reports
every decoding, normalization, verification and apply finding with its rule id and event index.
Exit code: 0 no findings, 1 findings, 2 bad usage.
`;

/** A parsed command line, or what was wrong with it. */
type Parsed =
  | { readonly kind: "check"; readonly url: string; readonly options: CheckOptions; readonly json: boolean }
  | { readonly kind: "usage"; readonly error?: string };

/**
 * Parses the arguments after `agui-rx`.
 *
 * @example
 * parseArgs(["check", "http://127.0.0.1:8000/", "add", "milk", "--timeout", "5"]);
 * // { kind: "check", url: "http://127.0.0.1:8000/", options: { message: "add milk", timeoutMs: 5000 }, json: false }
 */
export function parseArgs(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h") return { kind: "usage" };
  if (command !== "check") return { kind: "usage", error: `unknown command ${JSON.stringify(command)}; expected check` };
  const words: string[] = [];
  const headers: Record<string, string> = {};
  let timeoutMs: number | undefined;
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (arg === "--json") json = true;
    else if (arg === "--header" || arg === "--timeout") {
      const value = rest[++i];
      if (value === undefined) return { kind: "usage", error: `${arg} needs a value` };
      if (arg === "--timeout") {
        const seconds = Number(value);
        if (!(seconds > 0)) return { kind: "usage", error: `expected --timeout <seconds> to be a positive number, got ${JSON.stringify(value)}` };
        timeoutMs = seconds * 1000;
      } else {
        const colon = value.indexOf(":");
        if (colon <= 0) return { kind: "usage", error: `expected --header "Name: value", got ${JSON.stringify(value)}` };
        headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
      }
    } else if (arg.startsWith("--")) return { kind: "usage", error: `unknown option ${arg}` };
    else words.push(arg);
  }
  const [url, ...message] = words;
  if (url === undefined) return { kind: "usage", error: "expected the endpoint's URL" };
  if (!/^https?:\/\//.test(url)) return { kind: "usage", error: `expected an http(s) URL, got ${JSON.stringify(url)}` };
  const options: CheckOptions = {
    ...(message.length > 0 ? { message: message.join(" ") } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  return { kind: "check", url, options, json };
}

/**
 * Runs the command line and resolves with the exit code; output goes to `write`.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), (text) => process.stdout.write(text));
 */
export async function main(argv: readonly string[], write: (text: string) => void): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === "usage") {
    write(parsed.error === undefined ? USAGE : `agui-rx: ${parsed.error}\n\n${USAGE}`);
    return parsed.error === undefined && argv.length > 0 ? 0 : 2;
  }
  const report = await checkEndpoint(parsed.url, parsed.options);
  write(parsed.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return exitCodeOf(report);
}

if (require.main === module) {
  main(process.argv.slice(2), (text) => process.stdout.write(text)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`agui-rx: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
