/**
 * One update as one short line (docs/testing.md#asserting-on-updates): what a test asserts on when
 * it cares about the sequence and not about every member, with a list (`summarize`) or in a
 * marble diagram (`map(describeUpdate)`).
 */
import type { Update } from "../thread/Update";
import type { MessageChange } from "../thread/Update";

/**
 * The line for one update, by its kind:
 * - `message`: the role, the id and the change, with the delta in JSON quotes (`assistant m1 content "Hi"`),
 *   the tool call id (`assistant m1 toolCallStarted c1`) and the parsed arguments (`… toolCallEnded c1 {"city":"Paris"}`);
 * - `reasoning`: `reasoning r1 content "hm"`; `messages`: `messages 3` (how many after the merge);
 * - `state`: `state {"n":2}` (the raw JSON); `interrupt`: `interrupt i1 confirm`; `subagent`: `subagent researcher finished`;
 * - `error`: `error tool: <message>`; `connection`: `connection reconnecting 1`; `run`: `run r2 roundtrip 1`;
 * - `queued`: `queued q1 waiting`; `done`: `done success`, `done failed: <message>`.
 * An update of a kind added later reads as its kind.
 *
 * @example
 * describeUpdate({ kind: "done", end: { kind: "success" } }); // "done success"
 */
export function describeUpdate<S>(update: Update<S>): string {
  switch (update.kind) {
    case "message":
      return `${update.message.role} ${update.id} ${describeChange(update.change)}`;
    case "reasoning":
      return `reasoning ${update.id} ${update.change.kind}${update.change.kind === "content" ? ` ${JSON.stringify(update.change.delta)}` : ""}`;
    case "messages":
      return `messages ${update.messages.length}`;
    case "state":
      return `state ${JSON.stringify(update.rawState)}`;
    case "interrupt":
      return `interrupt ${update.interrupt.id} ${update.interrupt.reason}`;
    case "subagent":
      return `subagent ${update.subagent.name} ${update.change}`;
    case "error":
      return `error ${update.error.kind}: ${update.error.message}`;
    case "connection":
      return `connection ${update.status} ${update.attempt}`;
    case "run":
      return `run ${update.runId} roundtrip ${update.roundtrip}`;
    case "queued":
      return `queued ${update.notice.id} ${update.notice.status}`;
    case "done":
      return update.end.kind === "failed" ? `done failed: ${update.end.message}` : `done ${update.end.kind}`;
    default:
      return later(update);
  }
}

/**
 * Every update of a list as its line (`describeUpdate`), in order: a whole exchange in one
 * assertion that prints readably when it fails.
 *
 * @example
 * assert.deepEqual(summarize(await collectUpdates(session.send("Ada"))), [
 *   "user u1 started", "user u1 content \"Ada\"", "assistant m1 started", "assistant m1 content \"Hello, Ada!\"", "assistant m1 ended", "done success",
 * ]);
 */
export function summarize<S>(updates: readonly Update<S>[]): string[] {
  return updates.map((update) => describeUpdate(update));
}

/** A message change after its kind: the delta, the tool call and its arguments when it has them. */
function describeChange(change: MessageChange): string {
  switch (change.kind) {
    case "content":
      return `content ${JSON.stringify(change.delta)}`;
    case "toolCallStarted":
    case "toolResult":
      return `${change.kind} ${change.toolCallId}`;
    case "toolCallArgs":
      return `toolCallArgs ${change.toolCallId} ${JSON.stringify(change.delta)}`;
    case "toolCallEnded":
      return `toolCallEnded ${change.toolCallId} ${JSON.stringify(change.args)}`;
    case "encryptedValue":
      return `encryptedValue ${change.subtype} ${change.entityId}`;
    case "started":
    case "ended":
    case "activity":
      return change.kind;
    default:
      return later(change);
  }
}

/** The kind of a member a later version adds (the unions are open for extension: docs/rules.md#A23). */
function later(value: never): string {
  const kind: unknown = Reflect.get(value, "kind");
  return String(kind);
}
