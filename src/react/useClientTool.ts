/** Renders the running calls of one client tool: how a human-in-the-loop tool asks the user (docs/tools.md § human in the loop). */
import { createElement, Fragment, type ReactElement, type ReactNode } from "react";
import type { ClientTool } from "../client/tools/clientTool";
import { callsOf, type RunningToolCall } from "../client/tools/RunningToolCalls";
import { sessionTicks, type ChangeSource } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/**
 * What the client-tool hooks need of a Session: its running calls and its change listener (any `Session<S>` fits).
 *
 * @example
 * const source: ToolCallSource = session;
 */
export interface ToolCallSource extends ChangeSource {
  readonly runningToolCalls: readonly RunningToolCall[];
}

/**
 * The client tool calls the session is executing now, re-rendering when one starts or settles
 * (at most once per frame). The array is the same object until it changes.
 *
 * @example
 * const waiting = new Set(useRunningToolCalls(session).map((call) => call.toolCallId));
 */
export function useRunningToolCalls(session: ToolCallSource): readonly RunningToolCall[] {
  return useObserved(sessionTicks(session), () => session.runningToolCalls);
}

/**
 * Renders every running call of `tool` with `render(call)`: the call's `toolCallId`, its `args`
 * decoded and typed by the tool's codec, and `respond(result)`, typed by the tool's result, which
 * answers the call and lets the session start the follow-up run. Every call of the turn renders,
 * each keyed by its `toolCallId`, not only the first; a call leaves the list once answered (or
 * when the exchange is stopped). Pass the tool object the session was given (matched by
 * identity); a name matches by name, with `unknown` arguments and result.
 *
 * @example
 * const cards = useClientTool(session, confirmDelete, ({ toolCallId, args, respond }) => (
 *   <ConfirmCard key={toolCallId} title={args.title} onAnswer={(confirmed) => respond({ confirmed })} />
 * ));
 * return <footer>{cards}</footer>;
 */
export function useClientTool<A, R>(session: ToolCallSource, tool: ClientTool<A, R>, render: (call: RunningToolCall<A, R>) => ReactNode): ReactElement[];
export function useClientTool(session: ToolCallSource, name: string, render: (call: RunningToolCall) => ReactNode): ReactElement[];
export function useClientTool<A, R>(session: ToolCallSource, ...args: ToolAndRender<A, R>): ReactElement[] {
  const running = useRunningToolCalls(session);
  if (byName(args)) {
    const [name, render] = args;
    return callsOf(running, name).map((call) => keyed(call.toolCallId, render(call)));
  }
  const [tool, render] = args;
  return callsOf(running, tool).map((call) => keyed(call.toolCallId, render(call)));
}

/** The two ways to name the tool, each with the render it types. */
type ToolAndRender<A, R> =
  [tool: ClientTool<A, R>, render: (call: RunningToolCall<A, R>) => ReactNode] | [name: string, render: (call: RunningToolCall) => ReactNode];

/** The runtime check that tells the two apart: a name is a string, a tool an object. */
function byName<A, R>(args: ToolAndRender<A, R>): args is [name: string, render: (call: RunningToolCall) => ReactNode] {
  return typeof args[0] === "string";
}

function keyed(toolCallId: string, node: ReactNode): ReactElement {
  return createElement(Fragment, { key: toolCallId }, node);
}
