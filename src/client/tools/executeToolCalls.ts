/** `executeToolCalls`: a finished run's client tool calls, executed as one cold Observable of their results (docs/tools.md § execution). */
import { Observable } from "rxjs";
import type { ToolCall } from "../../protocol/messages";
import type { ClientTool, ToolSession } from "./clientTool";
import { runToolCall, type ToolCallResult } from "./runToolCall";

/**
 * A call to execute: the call, the assistant message that holds it, and the tool that answers it
 * (what `pendingClientToolCalls` returns in `execute`).
 *
 * @example
 * const item: ExecutableToolCall = { call, messageId: "assistant-1", tool: getWeather };
 */
export interface ExecutableToolCall {
  readonly call: ToolCall;
  /** The assistant message holding the call: calls of one message run concurrently. */
  readonly messageId: string;
  readonly tool: ClientTool;
}

/**
 * Options of `executeToolCalls`.
 *
 * @example
 * const options: ExecuteToolCallsOptions = { session, newId: () => crypto.randomUUID() };
 */
export interface ExecuteToolCallsOptions {
  /** What `execute` reads (`context.session`). */
  readonly session: ToolSession;
  /** Mints the ids of the tool messages. */
  readonly newId: () => string;
}

/**
 * Executes `calls` on subscription and emits one `ToolCallResult` per call, in the calls' order,
 * then completes. Cold: each subscription executes the calls again.
 *
 * - The calls of one assistant message run concurrently; a result is emitted once it and every
 *   call before it have settled, so the order never depends on timing. The next assistant
 *   message's calls start when the previous message's have all settled.
 * - Every call ends with a result (`runToolCall`): arguments that do not decode, a throw or a
 *   rejection of `execute` and a result with no JSON form are error results. The Observable
 *   itself errors only when `newId` throws, before any of that message's calls start.
 * - Unsubscribing aborts the `signal` every running `execute` received; nothing is emitted after.
 *
 * @example
 * executeToolCalls(pending.execute, { session, newId }).pipe(toArray()).subscribe((results) => {
 *   for (const result of results) append(result.message);
 * });
 */
export function executeToolCalls(calls: readonly ExecutableToolCall[], options: ExecuteToolCallsOptions): Observable<ToolCallResult> {
  return new Observable<ToolCallResult>((subscriber) => {
    const controller = new AbortController();
    const groups = byMessage(calls);
    let nextGroup = 0;

    const runGroup = (): void => {
      if (controller.signal.aborted) return;
      if (nextGroup === groups.length) {
        subscriber.complete();
        return;
      }
      const group = groups[nextGroup++];
      let messageIds: string[];
      try {
        messageIds = group.map(() => options.newId());
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const settled: (ToolCallResult | undefined)[] = group.map(() => undefined);
      let emitted = 0;
      group.forEach((item, index) => {
        const context = { messageId: messageIds[index], signal: controller.signal, session: options.session };
        const settle = (result: ToolCallResult): void => {
          if (controller.signal.aborted) return;
          settled[index] = result;
          // Emit the settled prefix in order; a later call that finished first waits here. A
          // subscriber that unsubscribes while it is handed a result stops the loop.
          for (let ready = settled[emitted]; ready !== undefined && !controller.signal.aborted; ready = settled[emitted]) {
            settled[emitted++] = undefined;
            subscriber.next(ready);
          }
          if (emitted === group.length) runGroup();
        };
        // `runToolCall` never rejects; the second callback is the last resort that keeps a bug loud.
        runToolCall(item.call, item.tool, context).then(settle, (error: unknown) => subscriber.error(error));
      });
    };

    runGroup();
    return () => controller.abort();
  });
}

/** The calls grouped by assistant message, groups in the order their first call appears. */
function byMessage(calls: readonly ExecutableToolCall[]): ExecutableToolCall[][] {
  const groups = new Map<string, ExecutableToolCall[]>();
  for (const item of calls) {
    const group = groups.get(item.messageId);
    if (group === undefined) groups.set(item.messageId, [item]);
    else group.push(item);
  }
  return [...groups.values()];
}
