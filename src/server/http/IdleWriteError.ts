/** Why a tail was closed when its reader took nothing for too long (docs/http.md, "Readers that never read"). */

/**
 * The reason an SSE response is closed with when frames waited for its reader and the reader
 * asked for none of them for `idleMs` milliseconds (`idleWriteTimeoutMs`): its socket accepted
 * nothing, so what is queued for it would be held until the connection dies. With a store this
 * only detaches: the run goes on, and the client reconnects with its `Last-Event-ID` later.
 *
 * @example
 * if (reason instanceof IdleWriteError) log.info(`closed an idle tail after ${reason.idleMs} ms`);
 */
export class IdleWriteError extends Error {
  override readonly name = "IdleWriteError";
  constructor(
    /** How long the reader took nothing while frames waited for it, in ms. */
    readonly idleMs: number,
  ) {
    super(
      `the client took nothing for ${idleMs} ms while events waited for it (idleWriteTimeoutMs), so its response was closed; it may reconnect with its Last-Event-ID`,
    );
  }
}
