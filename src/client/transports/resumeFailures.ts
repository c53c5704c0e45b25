/** How a followed stream's cut is judged and what a run that cannot resume fails with (docs/durability.md#stores-and-routes). */
import { DecodeError } from "../../wire/DecodeError";
import { ClientError } from "../../thread/ClientError";
import { REFUSED_CODE, UNANSWERED_CODE } from "./requestFailure";

/**
 * How a connection ended without its run's terminal event: an error, or a body that simply ended.
 *
 * @example
 * const cut: Cut = { kind: "error", error: new ClientError("transport", "socket hang up") };
 */
export type Cut = { readonly kind: "error"; readonly error: unknown } | { readonly kind: "complete" };

/**
 * Whether `error` is a cut a reconnect may mend: the request got no answer, the body failed or ended
 * inside a frame; and on a reconnect, also a failed answer other than 404/405 (a server that is
 * restarting, a store that is down: 5xx). A first request that never reached the server
 * (`refused`), or whose own retries were used up (`unanswered`), is not: there is nothing to resume.
 *
 * @example
 * isCut(new DecodeError("truncated", …), true, false); // true: the body ended inside a frame
 */
export function isCut(error: unknown, opened: boolean, reconnect: boolean): boolean {
  if (error instanceof DecodeError) return error.code === "truncated";
  if (!ClientError.isInstance(error)) return false;
  if (error.kind === "transport") return reconnect || (error.code !== REFUSED_CODE && error.code !== UNANSWERED_CODE);
  return reconnect && !opened && error.kind === "http" && !refusesResume(error);
}

/**
 * Whether `error` is a 410 `gone` answer: the thread the client followed after a cursor no longer
 * exists on the server (deleted, evicted, expired), docs/threads.md#joining-a-new-thread. A reconnect
 * so answered ends the run with it: nothing is left to resume, and trying again cannot help.
 *
 * @example
 * if (reconnect && isGone(error)) subscriber.error(error);
 */
export function isGone(error: unknown): boolean {
  return ClientError.isInstance(error) && error.kind === "http" && error.status === 410;
}

/**
 * Whether `error` is an answer of 404 or 405: the server keeps no such thread, or no threads at all.
 *
 * @example
 * if (reconnect && refusesResume(error)) endAsTheFirstCut();
 */
export function refusesResume(error: unknown): boolean {
  return ClientError.isInstance(error) && error.kind === "http" && (error.status === 404 || error.status === 405);
}

/**
 * The `transport` error a run fails with when `count` reconnects after the `first` cut all failed, the `last` with what it says.
 *
 * @example
 * subscriber.error(exhausted(5, { kind: "complete" }, firstCut));
 */
export function exhausted(count: number, last: Cut, first: Cut | undefined): ClientError {
  const why = (cut: Cut | undefined) =>
    cut === undefined ? "" : cut.kind === "complete" ? "the body ended before the run did" : cut.error instanceof Error ? cut.error.message : String(cut.error);
  return new ClientError("transport", `the connection was lost (${why(first)}) and ${count} reconnects failed; the last: ${why(last)}`, {
    cause: last.kind === "error" ? last.error : undefined,
  });
}

/**
 * The `transport` error of a reconnect whose snapshot shows another run than the one `followed`: how it ended is not known.
 *
 * @example
 * subscriber.error(missed("run-1", "run-2"));
 */
export function missed(followed: string, found: string): ClientError {
  return new ClientError(
    "transport",
    `the connection was lost and the thread has moved on: expected run "${followed}" on reconnecting, but the server's last run is "${found}", so how "${followed}" ended is not known`,
  );
}

/**
 * The `transport` error of a waiting message's stream that said its run started and then ended
 * without any of the run's events: the server sends only the notice when a later run already
 * followed that run (docs/queue.md#on-the-wire), so how it ended is not known on this stream.
 *
 * @example
 * subscriber.error(startedAndPassed("r2", "r2"));
 */
export function startedAndPassed(queuedId: string, runId: string): ClientError {
  return new ClientError(
    "transport",
    `the thread has moved on: waiting message "${queuedId}" started as run "${runId}", but a later run followed it before its stream could follow it, so how "${runId}" ended is not known`,
  );
}

/**
 * The `transport` error of a reconnect that can only restart from a snapshot, for a consumer that cannot apply one (no notices).
 *
 * @example
 * if (restart && !plan.notices) subscriber.error(unrestartable());
 */
export function unrestartable(): ClientError {
  return new ClientError(
    "transport",
    "the connection was lost and the server no longer keeps the run's events after the last one received: it can only send the thread as a snapshot, which a consumer that does not ask for connection notices cannot apply (run with { connection: true }, as the Session does)",
  );
}
