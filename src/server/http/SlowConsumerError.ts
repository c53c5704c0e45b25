/** Why a run streamed over HTTP was stopped when its client could not keep up (docs/http.md, "Send-buffer cap"). */

/**
 * The abort reason a run's `ctx.signal` carries when the events queued for a client that reads
 * too slowly passed the send-buffer cap (`maxBufferedBytes`). The response then ends with a final
 * RUN_ERROR whose code is {@link SLOW_CONSUMER_CODE} and whose message is this error's.
 *
 * @example
 * ctx.signal.addEventListener("abort", () => {
 *   if (ctx.signal.reason instanceof SlowConsumerError) log.warn(ctx.signal.reason.message);
 * });
 */
export class SlowConsumerError extends Error {
  override readonly name = "SlowConsumerError";
  constructor(
    /** The bytes queued for the client, the event that did not fit included. */
    readonly queuedBytes: number,
    /** The cap that was passed. */
    readonly limit: number,
  ) {
    super(
      `the client reads too slowly: ${queuedBytes} bytes of events would be queued for it, more than the send-buffer cap of ${limit} bytes (maxBufferedBytes), so the run was stopped`,
    );
  }
}

/**
 * The RUN_ERROR code of a run stopped for a slow client.
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === SLOW_CONSUMER_CODE) retryLater();
 */
export const SLOW_CONSUMER_CODE = "SLOW_CONSUMER";
