/**
 * The client bench's `+apply` lane: what a Session runs on an SSE body, without the Session. The
 * body is decoded (`decodeSse`), checked by the Session's own step (`normalizeAndVerify`, report
 * mode) and applied (`applyEvents` to a state that holds the user's message, as a Session's does
 * once it has sent it), and nothing else: no transport, no run slot, no views, no tool loop. Its
 * distance to the `session` lane is what the Session adds around its pipeline; its distance to the
 * `+norm+verify` lane is the reducer's (docs/benchmarks.md#issue-27).
 */
import { of } from "rxjs";
import { applyEvents } from "../../src/client/applyEvents";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
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
