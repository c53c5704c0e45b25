/** What a reconnecting transport tells the Session in-band (docs/durability.md#stores-and-routes): a cut, a reconnect, and whether the stream starts over. */

/**
 * `reconnecting`: the connection was lost mid-run and attempt `attempt` (1, 2, …) is about to be
 * made (after its delay); `connected`: attempt `attempt` got an answer and the run's events
 * continue. With `restart`, the answer was a snapshot (a compacted prelude with its own
 * RUN_STARTED: the cursor was no longer kept) after events of the run had already been passed on,
 * so the consumer must check and apply what follows as a stream of its own (the Session restarts
 * its verifier for it); without it, what follows continues the run exactly.
 *
 * @example
 * if (isConnectionNotice(item)) console.log(item.status, item.attempt);
 */
export class ConnectionNotice {
  readonly kind = "connection" as const;

  constructor(
    readonly status: "reconnecting" | "connected",
    readonly attempt: number,
    readonly restart = false,
  ) {}
}

/**
 * Whether a transport's item is a `ConnectionNotice` rather than an event or a decode warning.
 *
 * @example
 * transport.run(input, { connection: true }).pipe(filter((item) => !isConnectionNotice(item)));
 */
export function isConnectionNotice(value: unknown): value is ConnectionNotice {
  return value instanceof ConnectionNotice;
}
