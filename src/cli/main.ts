/**
 * The `agui-rx` command (package.json `bin`, built to `dist/cli/agui-rx.cjs`): `agui-rx check <url>
 * [message]` runs one run against an AG-UI endpoint and reports every finding (docs/check.md);
 * `agui-rx inspect <url>` serves the inspector page for it (docs/observability.md#inspect-cli).
 * Exit code: 0 no findings (or the inspector stopped by a signal), 1 findings, 2 bad usage.
 */
import { checkEndpoint, type CheckOptions } from "./checkEndpoint";
import { exitCodeOf } from "./Finding";
import { formatReport } from "./formatReport";
import { startInspectServer, type InspectServerOptions } from "./startInspectServer";

export const USAGE = `usage: agui-rx check <url> [message] [--header "Name: value"]... [--timeout <seconds>] [--json]
       agui-rx inspect <url> [--thread <id>] [--port <n>] [--header "Name: value"]... [--trace-link <template>]

check: runs one run against an AG-UI endpoint (POST <url>, one user message, default "Hello") and
reports every decoding, normalization, verification and apply finding with its rule id and event index.
Exit code: 0 no findings, 1 findings, 2 bad usage.

inspect: serves the inspector page on 127.0.0.1 (the endpoint proxied on the page's origin) and
prints its URL; it joins --thread (or picks from the thread list) on a server that keeps threads,
and sends runs from its own composer to any other. --trace-link turns trace ids into links
({traceId} is replaced). Runs until SIGINT or SIGTERM.
`;

/** A parsed command line, or what was wrong with it. */
type Parsed =
  | { readonly kind: "check"; readonly url: string; readonly options: CheckOptions; readonly json: boolean }
  | { readonly kind: "inspect"; readonly options: InspectServerOptions }
  | { readonly kind: "usage"; readonly error?: string };

/** `--header "Name: value"` as a name and a value, or undefined when it is not one. */
function headerOf(value: string): readonly [string, string] | undefined {
  const colon = value.indexOf(":");
  return colon <= 0 ? undefined : [value.slice(0, colon).trim(), value.slice(colon + 1).trim()];
}

/** Sets the header a `--header "Name: value"` names; the usage error when `value` names none. */
function addHeader(headers: Record<string, string>, value: string): Parsed | undefined {
  const header = headerOf(value);
  if (header === undefined) return { kind: "usage", error: `expected --header "Name: value", got ${JSON.stringify(value)}` };
  headers[header[0]] = header[1];
  return undefined;
}

/** What a command's options are: those that take the next word as their value, and those that stand alone. */
interface OptionSpec {
  readonly valued: readonly string[];
  readonly flags?: readonly string[] | undefined;
  /** Takes one option (a flag's value is `""`); returns the usage error that stops the parse. */
  readonly take: (option: string, value: string) => Parsed | undefined;
}

/**
 * Walks a command's arguments: options go to `spec.take`, the other words come back in order,
 * the first of them the endpoint's URL (checked: present, http or https). A usage error stops it.
 */
function walkArgs(rest: readonly string[], spec: OptionSpec): { readonly url: string; readonly words: readonly string[] } | Parsed {
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    let refused: Parsed | undefined;
    if (spec.flags?.includes(arg) === true) refused = spec.take(arg, "");
    else if (spec.valued.includes(arg)) {
      const value = rest[++i];
      refused = value === undefined || value === "" ? { kind: "usage", error: `${arg} needs a value` } : spec.take(arg, value);
    } else if (arg.startsWith("--")) refused = { kind: "usage", error: `unknown option ${arg}` };
    else words.push(arg);
    if (refused !== undefined) return refused;
  }
  const [url = "", ...others] = words;
  if (url === "") return { kind: "usage", error: "expected the endpoint's URL" };
  if (!/^https?:\/\//.test(url)) return { kind: "usage", error: `expected an http(s) URL, got ${JSON.stringify(url)}` };
  return { url, words: others };
}

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
  if (command === "inspect") return parseInspect(rest);
  if (command !== "check") return { kind: "usage", error: `unknown command ${JSON.stringify(command)}; expected check or inspect` };
  const headers: Record<string, string> = {};
  let timeoutMs: number | undefined;
  let json = false;
  const walked = walkArgs(rest, {
    valued: ["--header", "--timeout"],
    flags: ["--json"],
    take: (option, value) => {
      if (option === "--json") json = true;
      else if (option === "--header") return addHeader(headers, value);
      else {
        const seconds = Number(value);
        if (!(seconds > 0)) return { kind: "usage", error: `expected --timeout <seconds> to be a positive number, got ${JSON.stringify(value)}` };
        timeoutMs = seconds * 1000;
      }
      return undefined;
    },
  });
  if ("kind" in walked) return walked;
  const { url, words: message } = walked;
  const options: CheckOptions = {
    ...(message.length > 0 ? { message: message.join(" ") } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  return { kind: "check", url, options, json };
}

/** The arguments after `agui-rx inspect`. */
function parseInspect(rest: readonly string[]): Parsed {
  const headers: Record<string, string> = {};
  let threadId: string | undefined;
  let port: number | undefined;
  let traceLink: string | undefined;
  const walked = walkArgs(rest, {
    valued: ["--thread", "--port", "--header", "--trace-link"],
    take: (option, value) => {
      if (option === "--thread") threadId = value;
      else if (option === "--trace-link") traceLink = value;
      else if (option === "--header") return addHeader(headers, value);
      else {
        port = Number(value);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          return { kind: "usage", error: `expected --port <n> to be a port number, got ${JSON.stringify(value)}` };
      }
      return undefined;
    },
  });
  if ("kind" in walked) return walked;
  const { url, words: extra } = walked;
  if (extra.length > 0) return { kind: "usage", error: `inspect takes one URL, got also ${JSON.stringify(extra.join(" "))}` };
  const options: InspectServerOptions = {
    url,
    ...(threadId === undefined ? {} : { threadId }),
    ...(port === undefined ? {} : { port }),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(traceLink === undefined ? {} : { traceLink }),
  };
  return { kind: "inspect", options };
}

/** Resolves on the first SIGINT or SIGTERM, which then no longer end the process by themselves. */
function signalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
  });
}

/**
 * Runs the command line and resolves with the exit code; output goes to `write`. `inspect` runs
 * until `stop` resolves (by default the first SIGINT or SIGTERM).
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), (text) => process.stdout.write(text));
 */
export async function main(argv: readonly string[], write: (text: string) => void, stop: () => Promise<unknown> = signalled): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === "usage") {
    write(parsed.error === undefined ? USAGE : `agui-rx: ${parsed.error}\n\n${USAGE}`);
    return parsed.error === undefined && argv.length > 0 ? 0 : 2;
  }
  if (parsed.kind === "inspect") {
    const stopped = stop(); // listening for the signal before the server starts: one sent early is not lost
    const inspector = await startInspectServer(parsed.options);
    write(`agui-rx inspect: ${parsed.options.url}\nopen ${inspector.url}\n`);
    await stopped;
    await inspector.close();
    return 0;
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
