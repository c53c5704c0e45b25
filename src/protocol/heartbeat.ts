/** The heartbeat a server announces on its event streams (docs/http.md#heartbeats): the header's name and how its value is written and read, here so both ends agree. */

/**
 * The response header of every event stream of a handler that sends heartbeats: the interval in
 * seconds (a decimal number, `15` by default) after which a quiet stream gets a comment line. A
 * client that reads it may take a silence of three intervals as a cut. A page on another origin
 * reads it only if the server exposes it (`cors` does).
 *
 * @example
 * new Response(body, { headers: { [HEARTBEAT_HEADER]: heartbeatHeaderValue(15_000) } }); // AGUI-Heartbeat: 15
 */
export const HEARTBEAT_HEADER = "AGUI-Heartbeat";

/**
 * The header's value for an interval of `ms` milliseconds: seconds, as a decimal number.
 *
 * @example
 * heartbeatHeaderValue(2500); // "2.5"
 */
export function heartbeatHeaderValue(ms: number): string {
  return String(ms / 1000);
}

/**
 * The interval a header value announces, in ms; `undefined` for no header or a value that is not a
 * positive finite number of seconds (a client then assumes no heartbeat rather than guessing one).
 *
 * @example
 * heartbeatIntervalMs(response.headers.get(HEARTBEAT_HEADER)); // 15000 for "15"
 */
export function heartbeatIntervalMs(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  const ms = Number(value) * 1000;
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}
