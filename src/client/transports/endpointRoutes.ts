/** The routes of one AG-UI endpoint beside its run route (docs/durability.md#stores-and-routes: `/connect`, `/stop`, `/capabilities`), and what their headers function sees. */
import type { RunAgentInput } from "../../protocol/input";
import { ClientError } from "../../thread/ClientError";

/**
 * `url` checked as an endpoint, at construction rather than at the first request: an absolute URL,
 * or in a page (where `location` is defined) one relative to it. In Node a relative URL has nothing
 * to resolve against, so it is refused here with a `config` error naming it, instead of every
 * request failing later with fetch's bare "Invalid URL".
 *
 * @example
 * checkEndpointUrl("/agent"); // in Node: throws ClientError config 'expected an absolute URL … but got "/agent"'
 */
export function checkEndpointUrl(url: string): void {
  const base = globalThis.location?.href;
  try {
    new URL(url, base);
    return;
  } catch {
    // refused below, naming the URL and why (URL.canParse would say the same, but not every supported runtime has it)
  }
  const why =
    base === undefined
      ? 'there is no page here (no `location`, as in Node) to resolve a relative URL against: pass an absolute URL such as "http://localhost:8000/agent"'
      : `it does not resolve against the page's ${JSON.stringify(base)}`;
  throw new ClientError("config", `HttpTransport: expected an absolute URL, but got ${JSON.stringify(url)}; ${why}`, { code: "invalid-url" });
}

/**
 * `url` with `segment` appended to its path, before any query: `/agent` → `/agent/connect`,
 * `http://host/` → `http://host/connect`.
 *
 * @example
 * subPath("http://127.0.0.1:8000/agent?x=1", "stop") // "http://127.0.0.1:8000/agent/stop?x=1"
 */
export function subPath(url: string, segment: string): string {
  const parsed = new URL(url, globalThis.location?.href);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, "")}/${segment}`;
  return parsed.href;
}

/**
 * `{url}/threads`, or with `rest` (already percent-encoded) appended: `{url}/threads/{id}`,
 * `{url}/threads/events`, `{url}/threads/{id}/path`; before any query. A thread named `events`
 * has the events route's path: the method tells them apart (only `GET` reads the events).
 *
 * @example
 * threadsPath("http://h/agent", "t1/path") // "http://h/agent/threads/t1/path"
 */
export function threadsPath(url: string, rest?: string): string {
  const parsed = new URL(url, globalThis.location?.href);
  const base = `${parsed.pathname.replace(/\/+$/, "")}/threads`;
  parsed.pathname = rest === undefined ? base : `${base}/${rest}`;
  return parsed.href;
}

/**
 * The input the headers function sees for a request that is not a run: the thread (and run),
 * nothing else.
 *
 * @example
 * threadInput("board-1", "run-7") // { threadId: "board-1", runId: "run-7", messages: [], tools: [], context: [] }
 */
export function threadInput(threadId: string, runId = ""): RunAgentInput {
  return { threadId, runId, messages: [], tools: [], context: [] };
}
