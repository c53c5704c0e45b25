/** `HandlerOptions.heartbeatMs` resolved (docs/http.md#heartbeats): the default, the ways to turn heartbeats off, and a clear refusal of anything else. */

/** The default heartbeat interval of a handler's event streams: 15 s. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * The interval the handler's streams send heartbeats at, in ms, or `undefined` for none:
 * `DEFAULT_HEARTBEAT_MS` when the option is absent, none for `false`, `0` or `Infinity`. Throws a
 * `RangeError` naming the option for a negative number or `NaN`, when the handler is made, rather
 * than a stream that beats at a surprising pace.
 *
 * @example
 * heartbeatInterval(undefined); // 15000
 * heartbeatInterval(false); // undefined
 */
export function heartbeatInterval(option: number | false | undefined): number | undefined {
  if (option === undefined) return DEFAULT_HEARTBEAT_MS;
  if (option === false || option === 0 || option === Infinity) return undefined;
  if (typeof option !== "number" || !(option > 0)) {
    throw new RangeError(`expected heartbeatMs to be a positive number of ms, 0 or false (no heartbeats), but got ${String(option)}`);
  }
  return option;
}
