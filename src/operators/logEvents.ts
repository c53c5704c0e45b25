/** A debug log of a run's events, usable on either end (issue #15 item 6; docs/architecture.md#shape: the operators are public). */
import { defer, identity, tap, type MonoTypeOperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { isDecodeWarning } from "../wire/DecodeWarning";
import { Diagnostic, type InBandReport } from "./ProtocolError";

/** One logged moment of a stream: an event (or an in-band diagnostic or decode warning), its completion, error or unsubscription. */
export interface EventLogEntry {
  readonly kind: "event" | "diagnostic" | "warning" | "complete" | "error" | "unsubscribe";
  /** The event's position in this subscription's stream (0 for the first); for the ends, how many events came. */
  readonly index: number;
  /** The run's id, known from its RUN_STARTED (or RUN_FINISHED/RUN_ERROR); `undefined` before. */
  readonly runId: string | undefined;
  /** Milliseconds since the subscription began, by the `now` clock. */
  readonly elapsedMs: number;
  /** Milliseconds since the previous entry. */
  readonly sinceLastMs: number;
  /** The event, diagnostic or decode warning, for `event`, `diagnostic` and `warning` entries. */
  readonly item?: Event | InBandReport;
  /** The error, for an `error` entry. */
  readonly error?: unknown;
}

/** Where the lines go: `line` is the compact text, `entry` the same facts as data (for a structured logger). */
export type EventLogger = (line: string, entry: EventLogEntry) => void;

/** Options of {@link logEvents}. */
export interface LogEventsOptions {
  /** What each line starts with, in brackets (default `agui-rx`). */
  readonly label?: string | undefined;
  /** The clock, in milliseconds (default `Date.now`); inject one for tests or for `performance.now`. */
  readonly now?: (() => number) | undefined;
  /** Longest member value printed in full; longer ones are cut with `…` (default 80 characters). */
  readonly maxValueChars?: number | undefined;
  /** Member names whose values are never printed, at any depth (e.g. `["encryptedValue", "content"]`). */
  readonly redact?: readonly string[] | undefined;
}

/**
 * The `debug` option of `Session` and `createHandler`: `true` logs with `console.debug`, a function
 * is the logger, an object gives the logger and the options; `false` or absent logs nothing.
 */
export type DebugOption = boolean | EventLogger | (LogEventsOptions & { readonly logger?: EventLogger | undefined });

const DEFAULT_MAX_VALUE_CHARS = 80;
const defaultLogger: EventLogger = (line) => console.debug(line);

/**
 * Passes every event through unchanged and logs it on one compact line: the run id, its index in
 * the stream, the time since subscription and since the previous event, the type and each member,
 * with long values cut to `maxValueChars` (the line's cost is bounded by that, not by the size of a
 * snapshot) and `redact`ed members hidden. Diagnostics are logged with their rule, decode warnings with their code. Completion, an
 * error and an unsubscription (a cancelled run) get a line each. Per-subscription counters; a throw
 * from the logger or the clock errors the stream, as a throw in `tap` would.
 *
 * @example
 * // [agui-rx] r1 #0 0ms (+0) RUN_STARTED threadId="t1" runId="r1"
 * // [agui-rx] r1 #1 4ms (+4) TEXT_MESSAGE_CONTENT messageId="m1" delta="Hello, wor…"(+1190)
 * // [agui-rx] r1 complete after 5 events, 9ms
 * transport.run(input).pipe(logEvents()).subscribe();
 * events$.pipe(logEvents((line) => logger.debug(line), { label: "server", redact: ["content"] }));
 */
export function logEvents<T extends Event | InBandReport>(logger: EventLogger = defaultLogger, options: LogEventsOptions = {}): MonoTypeOperatorFunction<T> {
  const label = `[${options.label ?? "agui-rx"}]`;
  const now = options.now ?? Date.now;
  const format = { maxValueChars: options.maxValueChars ?? DEFAULT_MAX_VALUE_CHARS, redact: new Set(options.redact ?? []) };
  return (source) =>
    defer(() => {
      // Per subscription: two subscribers count and time their own streams.
      const start = now();
      let last = start;
      let index = 0;
      let runId: string | undefined;
      let ended = false;
      /** One line and its entry; `text` gets the timing, read once from the clock. */
      const log = (
        kind: EventLogEntry["kind"],
        text: (elapsed: number, sinceLast: number) => string,
        extra: Pick<EventLogEntry, "item" | "error"> = {},
      ): void => {
        const time = now();
        const entry: EventLogEntry = { kind, index, runId, elapsedMs: time - start, sinceLastMs: time - last, ...extra };
        last = time;
        logger(`${label} ${runId ?? "?"} ${text(entry.elapsedMs, entry.sinceLastMs)}`, entry);
      };
      return source.pipe(
        tap({
          next: (item) => {
            const value: Event | InBandReport = item;
            if (isDecodeWarning(value)) {
              const what = `warning ${value.code}: ${cut(value.message, format.maxValueChars * 2)}`;
              log("warning", (elapsed, since) => `#${index} ${elapsed}ms (+${since}) ${what}`, { item: value });
            } else if (Diagnostic.isInstance(value)) {
              const rule = `diagnostic ${value.error.rule}: ${cut(value.error.message, format.maxValueChars * 2)}`;
              log("diagnostic", (elapsed, since) => `#${index} ${elapsed}ms (+${since}) ${rule}`, { item: value });
            } else {
              if (value.type === "RUN_STARTED" || value.type === "RUN_FINISHED") runId = value.runId;
              log("event", (elapsed, since) => `#${index} ${elapsed}ms (+${since}) ${describeEvent(value, format)}`, { item: value });
            }
            index += 1;
          },
          complete: () => {
            ended = true;
            log("complete", (elapsed) => `complete after ${index} events, ${elapsed}ms`);
          },
          error: (error: unknown) => {
            ended = true;
            const why = error instanceof Error ? error.message : String(error);
            log("error", (elapsed) => `error after ${index} events, ${elapsed}ms: ${why}`, { error });
          },
          unsubscribe: () => {
            if (!ended) log("unsubscribe", (elapsed) => `unsubscribed after ${index} events, ${elapsed}ms`);
          },
        }),
      );
    });
}

/**
 * `logEvents` as a `debug` option asks for it (see {@link DebugOption}), or the identity when it is
 * off. `label` is the default label (`client`, `server`).
 *
 * @example
 * events$.pipe(debugEvents(options.debug, "client"), normalizeAndVerify());
 */
export function debugEvents<T extends Event | InBandReport>(option: DebugOption | undefined, label: string): MonoTypeOperatorFunction<T> {
  if (option === undefined || option === false) return identity;
  if (option === true) return logEvents<T>(defaultLogger, { label: `agui-rx ${label}` });
  if (typeof option === "function") return logEvents<T>(option, { label: `agui-rx ${label}` });
  const { logger, ...options } = option;
  return logEvents<T>(logger ?? defaultLogger, { ...options, label: options.label ?? `agui-rx ${label}` }); // an explicit `label: undefined` keeps the default
}

interface Format {
  readonly maxValueChars: number;
  readonly redact: ReadonlySet<string>;
}

/** `TYPE member=value …`, every member but `type`, each value bounded. */
function describeEvent(event: Event, format: Format): string {
  const parts: string[] = [event.type];
  for (const [key, value] of Object.entries(event)) {
    if (key === "type" || value === undefined) continue;
    parts.push(`${key}=${format.redact.has(key) ? "[redacted]" : preview(value, format)}`);
  }
  return parts.join(" ");
}

/**
 * Compact JSON of `value`, cut at `maxValueChars` with `…`. The walk stops where the budget ends, so
 * its cost is bounded by the budget whatever the value's size or depth; a long string says how much
 * was left out.
 */
function preview(value: unknown, format: Format): string {
  if (typeof value === "string") {
    const quoted = JSON.stringify(value.slice(0, format.maxValueChars));
    return value.length > format.maxValueChars ? `${quoted.slice(0, -1)}…"(+${value.length - format.maxValueChars})` : quoted;
  }
  const budget = format.maxValueChars;
  let text = "";
  let full = false;
  const push = (piece: string): void => {
    if (full) return;
    if (text.length + piece.length > budget) {
      text += piece.slice(0, budget - text.length);
      full = true;
    } else text += piece;
  };
  const walk = (node: unknown): void => {
    if (full) return;
    if (node === null || typeof node !== "object") {
      push(typeof node === "string" ? JSON.stringify(node.slice(0, budget)) : String(JSON.stringify(node) ?? null));
      return;
    }
    if (Array.isArray(node)) {
      push("[");
      for (let i = 0; i < node.length && !full; i++) {
        if (i > 0) push(",");
        walk(node[i]);
      }
      push("]");
      return;
    }
    push("{");
    let first = true;
    // for…in, not Object.entries: a cut preview of a large object must not list all its keys first
    for (const key in node) {
      if (full) return;
      if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
      push(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      if (format.redact.has(key)) push('"[redacted]"');
      else walk(Reflect.get(node, key));
    }
    push("}");
  };
  walk(value);
  return full ? `${text}…` : text;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
