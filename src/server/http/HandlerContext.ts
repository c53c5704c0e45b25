/** The handler's options resolved once, shared by its routes, and the access check every thread route makes first. */
import type { Observable } from "rxjs";
import type { AgentCapabilities } from "../../protocol/capabilities";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import { excerpt } from "../../protocol/describeFailure";
import type { DebugOption } from "../../operators/logEvents";
import type { ThreadStore } from "../store/ThreadStore";
import type { HistoryMode } from "../history/HistoryMode";
import { errorResponse } from "./errorResponse";
import type { FairTurns } from "./fairTurns";
import type { Authorize, HandlerOptions, RunFunction, ThreadAccess } from "./HandlerOptions";
import type { BodyLimits } from "./readJsonRequest";
import type { TailLimits } from "./tailLimits";
import type { Ready } from "./toEventStream";

/**
 * Everything a route needs, with the defaults filled in.
 *
 * @example
 * const refused = await checkAccess(context, request, { action: "connect", threadId });
 */
export interface HandlerContext {
  readonly limits: BodyLimits;
  readonly stream: { readonly highWaterMark: number; readonly maxBufferedBytes: number; readonly turns: FairTurns | undefined };
  /** What bounds the store-backed responses: shared frames, their budget, the idle-write timeout. */
  readonly tails: TailLimits;
  /** Extra headers on every answer. */
  readonly headers: Readonly<Record<string, string>>;
  /** The source's default run function (an Agent through the driver, or the run function itself). */
  readonly runDefault: RunFunction;
  /** For an `Agent` source, its driver with the stop option (a stored run's stop ends it RUN_FINISHED cancelled); `undefined` for a run function. */
  readonly driver: ((input: RunAgentInput, pace: { readonly ready: Ready; readonly stop: AbortSignal }) => Observable<Event>) | undefined;
  readonly store: ThreadStore | undefined;
  /** Who owns a stored thread's history (docs/threads.md#the-anchor-rule). */
  readonly history: HistoryMode;
  readonly authorize: Authorize | undefined;
  readonly route: HandlerOptions["route"];
  readonly debug: DebugOption | undefined;
  readonly capabilities: AgentCapabilities;
  readonly onRunError: (error: unknown, run: { readonly threadId: string; readonly runId: string }) => void;
}

/**
 * `undefined` when `authorize` allows `access` (or there is no hook), else the answer to send: 403
 * `forbidden` with a JSON error that names the action and the thread (nothing of the thread
 * itself), or 500 `internal` when the hook throws. Asked before the store is, so that a denial
 * cannot depend on whether the thread exists: to a caller without access, an unknown thread and a
 * forbidden one answer alike.
 *
 * @example
 * const refused = await checkAccess(context, request, { action: "run", threadId: input.threadId, runId: input.runId });
 * if (refused) return refused;
 */
export async function checkAccess(context: HandlerContext, request: Request, access: ThreadAccess): Promise<Response | undefined> {
  if (context.authorize === undefined) return undefined;
  let allowed: boolean;
  try {
    allowed = await context.authorize(request, access);
  } catch (error) {
    const message = error instanceof Error ? error.message : excerpt(error);
    return errorResponse(500, { error: "internal", message: `authorize failed before the ${access.action} was served: ${message}` }, context.headers);
  }
  if (allowed === true) return undefined;
  const message = `expected permission to ${access.action} on thread ${JSON.stringify(access.threadId)}, but authorize denied it`;
  return errorResponse(403, { error: "forbidden", message }, context.headers);
}
