/** A whole exchange as one promise (docs/client.md#ask): `Session.ask`'s settling of an Update stream, for scripts and servers. */
import type { Observable, Subscription } from "rxjs";
import type { Message } from "../protocol/messages";
import { ClientError } from "../thread/ClientError";
import type { RunEnd, Update } from "../thread/Update";
import type { RunOptions } from "./SessionOptions";

/**
 * How `Session.ask` runs: a send's options, plus `onUpdate`, which hears every update of the
 * exchange as it happens (print a reply as it streams), and `signal`, which gives up on it.
 *
 * @example
 * const options: AskOptions = { onUpdate: (update) => update.kind === "message" && update.change.kind === "content" && process.stdout.write(update.change.delta), signal: AbortSignal.timeout(60_000) };
 */
export interface AskOptions<S = unknown> extends RunOptions {
  /** Hears each update of the exchange, in order, before the promise settles (it is the `send` Observable's subscriber). */
  readonly onUpdate?: ((update: Update<S>) => void) | undefined;
  /**
   * Gives up on the exchange: the subscription is let go (a server that keeps threads goes on with
   * the run; `stop()` cancels it) and the promise rejects with a `transport` ClientError, code `abort`.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * How an exchange ended, and the conversation after it.
 *
 * @example
 * const { end, messages } = await session.ask("What is on the board?");
 * if (end.kind === "success") console.log(messages.at(-1)?.content);
 */
export interface AskResult {
  /** The exchange's one `done`: `success`, `interrupted` (answer `session.interrupts` with `resume`), `cancelled` or `failed`. */
  readonly end: RunEnd;
  /** The whole conversation when the exchange ended (`session.messages` then): the reply is at its end. */
  readonly messages: readonly Message[];
}

/**
 * Subscribes to one exchange's Update stream (`send`'s) and settles when its `done` arrives:
 * resolves `{ end, messages }` on every end once a run could start (a run that failed, was
 * cancelled or was interrupted included: the end says which); rejects with the `ClientError` that
 * ended it when nothing could start (`nothingStarted`). A stream that completes without `done` (a
 * broken source) rejects too, naming it.
 *
 * @example
 * const answer = await askExchange(session.send("hi"), () => session.messages, {});
 */
export function askExchange<S>(
  updates$: Observable<Update<S>>,
  messages: () => readonly Message[],
  options: Pick<AskOptions<S>, "onUpdate" | "signal">,
): Promise<AskResult> {
  const { onUpdate, signal } = options;
  return new Promise<AskResult>((resolve, reject) => {
    if (signal?.aborted === true) return reject(aborted(signal));
    let lastError: ClientError | undefined;
    let followUps = 0;
    let settled = false;
    // `let`: a source that settles inside `subscribe` (a refused start) runs `next` before this is assigned
    let subscription: Subscription | undefined = undefined;
    const abort = (): void => {
      if (settled) return;
      subscription?.unsubscribe();
      settle(() => reject(aborted(signal)));
    };
    const settle = (how: () => void): void => {
      settled = true;
      signal?.removeEventListener("abort", abort);
      how();
    };
    subscription = updates$.subscribe({
      next: (update) => {
        if (settled) return;
        // E3: a failed done comes right after its error, so the last error is the one that ended the exchange
        if (update.kind === "error") lastError = update.error;
        if (update.kind === "run") followUps++;
        try {
          onUpdate?.(update);
        } catch (thrown) {
          // a throw from the caller's own callback ends the exchange with it, as a per-value callback's throw must
          subscription?.unsubscribe();
          return settle(() => reject(thrown instanceof Error ? thrown : new Error(String(thrown))));
        }
        if (update.kind !== "done") return;
        const { end } = update;
        const refused = lastError;
        if (nothingStarted(end, refused, followUps)) return settle(() => reject(refused));
        settle(() => resolve({ end, messages: messages() }));
      },
      // A Session's stream never errors; another source might.
      error: (error: unknown) => {
        if (!settled) settle(() => reject(ClientError.from(error)));
      },
      complete: () => {
        if (!settled) settle(() => reject(new ClientError("decode", "the exchange's update stream completed without its done update", { code: "truncated" })));
      },
    });
    if (settled) subscription.unsubscribe();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}

/**
 * Whether the exchange ended before any run could start: `failed` on its first run (no follow-up
 * began) with a `config` error (another run active, interrupts not answered, invalid tools or
 * policy), an `http` answer (the server refused the run before any event: 4xx, 503), or a
 * `transport` failure that reached no server (code `refused`, `unanswered`).
 */
function nothingStarted(end: RunEnd, error: ClientError | undefined, followUps: number): error is ClientError {
  if (end.kind !== "failed" || error === undefined || followUps > 0) return false;
  if (error.kind === "config" || error.kind === "http") return true;
  return error.kind === "transport" && (error.code === "refused" || error.code === "unanswered");
}

function aborted(signal: AbortSignal | undefined): ClientError {
  const reason: unknown = signal?.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  return new ClientError("transport", `ask: the exchange was given up (its signal aborted: ${why}); a server that keeps threads goes on with the run`, {
    code: "abort",
    cause: reason,
  });
}
