/**
 * The client bench's lanes that more than one bench times: the raw `floor` every share is taken
 * against, and those that build a thread from an SSE body: `session` (a whole Session) and
 * `+apply` (what a Session runs on the body, without the Session). For `+apply` the body is
 * decoded (`decodeSse`), checked by the Session's own step (`normalizeAndVerify`, report mode) and
 * applied (`applyEvents` to a state that holds the user's message, as a Session's does once it has
 * sent it), and nothing else: no transport, no run slot, no views, no tool loop. Its distance to
 * the `session` lane is what the Session adds around its pipeline; its distance to the
 * `+norm+verify` lane is the reducer's (docs/benchmarks.md#stages).
 */
import { of } from "rxjs";
import { applyEvents } from "../../src/client/applyEvents";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { ClientState } from "../../src/thread/reducers/ClientState";
import { decodeSse } from "../../src/wire/decodeSse";
import type { Thread } from "./checkResult";
import { THREAD, USER } from "./clientWorkloads";

/**
 * Applies `body` as the bench's Session would, synchronously, and returns the thread it built;
 * throws unless the run ended `success` (as the `session` lane does).
 *
 * @example
 * checkThread("+apply on text/20", reduceBody(body), expected);
 */
export function reduceBody(body: string): Thread {
  const state = ClientState.untyped();
  state.messages.append(USER);
  let end = "";
  of(body)
    .pipe(decodeSse(), normalizeAndVerify({ threadId: THREAD, newId: () => "generated-id" }), applyEvents({ state }))
    .subscribe((update) => {
      if (update.kind === "done") end = update.end.kind;
    });
  if (end !== "success") throw new Error(`the +apply lane's run ended ${end || "without done (it did not finish synchronously)"}`);
  return { messages: state.messages.snapshot(), state: state.rawState };
}

/**
 * A Session over a ReplayTransport of `body` sending the bench's user message, to its end, and the
 * thread it holds then; throws unless the run ended `success`.
 *
 * @example
 * checkThread("session on text/20", sessionThread(body), expected);
 */
export function sessionThread(body: string): Thread {
  const session = new Session(new ReplayTransport(body), { threadId: THREAD, newId: () => "generated-id" });
  let end = "";
  session.send(USER).subscribe((update) => {
    if (update.kind === "done") end = update.end.kind;
  });
  if (end !== "success") throw new Error(`the session run ended ${end || "without done"}`);
  return { messages: session.messages, state: session.rawState };
}

/**
 * The raw floor: the body split into frames on blank lines and each frame's data `JSON.parse`d, the
 * least any decoder does; returns how many frames it parsed.
 *
 * @example
 * checkEventCount("floor on text/1,000", floor(body), expected);
 */
export function floor(body: string): number {
  let count = 0;
  for (const frame of body.split("\n\n")) {
    if (frame.length === 0) continue;
    JSON.parse(frame.slice(6));
    count++;
  }
  return count;
}
