/** Helpers for the durable-thread HTTP tests: a store-backed handler on loopback, raw SSE reads with their ids, gates. */
import { lastValueFrom, from, toArray } from "rxjs";
import { runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { RunAgentInput } from "../../../src/protocol/input";
import { decodeSseFrames } from "../../../src/wire/decodeSseFrames";
import { serve, type Served } from "../../../src/node/serve";
import { createHandler, type HandlerOptions, type RunSource } from "../../../src/server/http/createHandler";
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";

/** A promise and the function that opens it. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A store-backed handler on loopback, closed by `closeAll()`. */
export interface StoredServer {
  readonly url: string;
  readonly store: MemoryStore;
  readonly served: Served;
}

const running: Served[] = [];

/** Serves `source` with a memory store (or the given one) on a free loopback port. */
export async function serveStored<S>(source: RunSource<S>, options: HandlerOptions & { readonly store?: MemoryStore } = {}): Promise<StoredServer> {
  const store = options.store ?? memoryStore();
  const served = await serve(createHandler(source, { onRunError: () => undefined, ...options, store }));
  running.push(served);
  return { url: `${served.url}agent`, store, served };
}

/** Closes every server `serveStored` started (call in afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(running.splice(0).map((served) => served.close()));
}

/** One frame as it went over the wire: its own `id:` (if any) and its event. */
export interface WireFrame {
  readonly id?: string;
  readonly event: Event;
}

/** The frames of an SSE text, with their `id:` lines. */
export async function framesOf(text: string): Promise<WireFrame[]> {
  const frames = await lastValueFrom(from([text]).pipe(decodeSseFrames(), toArray()));
  return frames.map((frame) => ({ ...(frame.id === undefined ? {} : { id: frame.id }), event: JSON.parse(frame.data) as Event })); // test-only: our own encoder's frames
}

/** POSTs JSON to `url` and reads the whole answer. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ readonly response: Response; readonly text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { response, text: await response.text() };
}

/** A run's input on `threadId` with one user message. */
export function inputFor(threadId: string, runId: string, text = "go"): RunAgentInput {
  return runAgentInput(threadId, runId, { messages: [{ id: `u-${runId}`, role: "user", content: text }] });
}

/** Waits until `check` holds, looking again after each turn of the event loop (bounded: a guard against a hang, not a timer). */
export async function until(check: () => boolean, what: string, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (check()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`expected ${what} within ${turns} event-loop turns`);
}

/** An SSE answer read as it arrives: `until(text)` waits for that text, `rest()` reads to the end; all of it in `text`. */
export interface OpenStream {
  readonly response: Response;
  readonly text: () => string;
  until(needle: string): Promise<string>;
  /** Waits until `count` whole frames (blank-line ended) have arrived. */
  untilFrames(count: number): Promise<string>;
  rest(): Promise<string>;
  cancel(): Promise<void>;
}

/** POSTs JSON to `url` and hands back the answer to read piece by piece. */
export async function openStream(url: string, body: unknown, headers: Record<string, string> = {}): Promise<OpenStream> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  if (response.body === null) throw new Error(`expected a body from ${url}, got status ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let done = false;
  const more = async (): Promise<void> => {
    const next = await reader.read();
    if (next.done) done = true;
    else text += decoder.decode(next.value, { stream: true });
  };
  return {
    response,
    text: () => text,
    async until(needle) {
      while (!text.includes(needle)) {
        if (done) throw new Error(`expected ${JSON.stringify(needle)} in the answer of ${url}, but it ended: ${text}`);
        await more();
      }
      return text;
    },
    async untilFrames(count) {
      while (text.split("\n\n").length - 1 < count) {
        if (done) throw new Error(`expected ${count} frames from ${url}, but it ended: ${text}`);
        await more();
      }
      return text;
    },
    async rest() {
      while (!done) await more();
      return text;
    },
    cancel: () => reader.cancel(),
  };
}

/**
 * `value` with every id (a string under a key `id` or ending in `Id`) replaced by its order of
 * first appearance, so two runs whose agents mint random ids compare equal when they did the same.
 */
export function canonicalIds<T>(value: T): unknown {
  const names = new Map<string, string>();
  const walk = (item: unknown, key: string | undefined): unknown => {
    if (typeof item === "string" && key !== undefined && (key === "id" || key.endsWith("Id"))) {
      let name = names.get(item);
      if (name === undefined) names.set(item, (name = `#${names.size}`));
      return name;
    }
    if (Array.isArray(item)) return item.map((entry) => walk(entry, key));
    if (typeof item === "object" && item !== null) return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v, k)]));
    return item;
  };
  return walk(value, undefined);
}
