/**
 * A refused send leaves the session as it was (issue #20 A5, docs/client.md § A refused send): the
 * user message a `send` appended is taken back out when the answer proves the server recorded
 * nothing, and kept, saying so, when a network failure leaves that unknown.
 */
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Message, UserMessage } from "../protocol/messages";
import { operate, SourceObserver } from "../rx/operate";
import { ClientError } from "../thread/ClientError";
import type { MessageList } from "../thread/reducers/MessageList";
import { provesNothingStarted } from "./transports/requestFailure";
import type { Update } from "../thread/Update";

/**
 * Statuses that refuse a run before anything of it is recorded: 403 (`authorize` said no), 409
 * (the thread has a live run), 422 (the input does not fit the thread), 429 (too many requests).
 */
const NOTHING_RECORDED: ReadonlySet<number> = new Set([403, 409, 422, 429]);

/**
 * What `withdrawRefusedSend` needs from the session.
 *
 * @example
 * const options: RefusedSendOptions = { message: user, heard: () => run.heard, withdraw: () => takeBack(list, user) };
 */
export interface RefusedSendOptions {
  /** The user message the send appended; none for a regenerate (its path is what is taken back). */
  readonly message?: UserMessage;
  /** Whether any event of the exchange has arrived (from then on the server has recorded the message). */
  readonly heard: () => boolean;
  /** Takes the message back out of the session; the list after it, or `undefined` when it could not (it is no longer last). */
  readonly withdraw: () => readonly Message[] | undefined;
}

/**
 * A send's updates, with its message taken back when the exchange fails before any event with an
 * error that proves nothing was recorded (`provesNotRecorded`): before that `error` comes a
 * `messages` update with the list as it was before the send, and the `done` (failed, as before)
 * carries the message as `unsent`. A network failure before any event (retries used up, or a cut
 * before the answer) keeps the message, and the `error` and `done` say the server may have
 * recorded it. Anything after an event passes unchanged. Per-subscription state.
 *
 * @example
 * exchange.pipe(withdrawRefusedSend({ message: user, heard: () => run.heard, withdraw: () => takeBack(list, user) }))
 */
export function withdrawRefusedSend<S>(options: RefusedSendOptions): MonoTypeOperatorFunction<Update<S>> {
  return operate<Update<S>, Update<S>>((source, subscriber) => {
    /** What the exchange's fatal error decided: the message was taken back, or kept with this error saying so. */
    let verdict: { readonly kind: "withdrawn" } | { readonly kind: "kept"; readonly error: ClientError } | undefined;
    source.subscribe(
      new SourceObserver(subscriber, {
        next(update) {
          if (update.kind === "error" && verdict === undefined && !options.heard()) {
            const { error } = update;
            if (provesNotRecorded(error)) {
              // the list is put back first, so that the `error` still comes right before its `done` (docs/rules.md#E3)
              const messages = options.withdraw();
              if (messages !== undefined) {
                verdict = { kind: "withdrawn" };
                subscriber.next({ kind: "messages", messages });
              }
              subscriber.next(update);
              return;
            }
            if (error.kind === "transport") {
              verdict = { kind: "kept", error: mayBeRecorded(error, options.message) };
              subscriber.next({ kind: "error", error: verdict.error });
              return;
            }
          }
          if (update.kind === "done" && update.end.kind === "failed" && verdict !== undefined) {
            const { message } = options;
            const end =
              verdict.kind === "withdrawn"
                ? message === undefined
                  ? update.end
                  : { ...update.end, unsent: message }
                : { ...update.end, message: verdict.error.message };
            subscriber.next({ kind: "done", end });
            return;
          }
          subscriber.next(update);
        },
      }),
    );
  });
}

/**
 * Whether a run's failure before any event proves the server recorded nothing of its input: an
 * HTTP refusal in `NOTHING_RECORDED`, or a 503 with the store's JSON refusal (the same proof that
 * lets the transport send the POST again, `provesNothingStarted`).
 *
 * @example
 * provesNotRecorded(new ClientError("http", "POST /agent answered 409 Conflict", { status: 409 })) // true
 */
export function provesNotRecorded(error: ClientError): boolean {
  if (error.kind !== "http" || error.status === undefined) return false;
  return NOTHING_RECORDED.has(error.status) || provesNothingStarted(error);
}

/**
 * Removes `message` from the end of `list`, where a send appended it; `undefined` (and the list
 * untouched) when it is not the last message any more.
 *
 * @example
 * takeBack(store.messages, user) // the messages as they were before the send
 */
export function takeBack(list: MessageList, message: UserMessage): readonly Message[] | undefined {
  if (list.length === 0 || list.at(list.length - 1) !== message) return undefined;
  list.removeLast();
  return list.snapshot();
}

/** A network failure before any event, saying that the message stays in the session because the server may have it. */
function mayBeRecorded(error: ClientError, message: UserMessage | undefined): ClientError {
  const { code } = error;
  const what = message === undefined ? "the request, so the session keeps its path" : `message "${message.id}", so the session keeps it`;
  return new ClientError(
    "transport",
    `${error.message}; the server may have recorded ${what} (connect() shows what the server has)`,
    code === undefined ? { cause: error } : { cause: error, code },
  );
}
