/**
 * The protocol version this library speaks, and how a declared one compares with it (AG-UI 1.1
 * `/spec/1.1/basic/versioning`: `MAJOR.MINOR`, compared numerically component by component; a
 * declaration that cannot be interpreted is handled like a newer one).
 */

/**
 * The version the client declares on every `RunAgentInput.protocolVersion`, as `@ag-ui/client`
 * 1.0.0 does: "1.0".
 *
 * @example
 * input.protocolVersion === PROTOCOL_VERSION
 */
export const PROTOCOL_VERSION = "1.0";

/** How a declared version relates to ours: not newer (serve it as it is), newer, or not a `MAJOR.MINOR` at all. */
export type VersionVerdict = "not-newer" | "newer" | "uninterpretable";

/**
 * Compares a declared protocol version with `own` (default `PROTOCOL_VERSION`).
 *
 * @example
 * compareProtocolVersion("1.10", "1.9") // "newer" (numeric, not lexical)
 * compareProtocolVersion("1.0")         // "not-newer"
 * compareProtocolVersion("v2")          // "uninterpretable"
 */
export function compareProtocolVersion(declared: string, own: string = PROTOCOL_VERSION): VersionVerdict {
  const theirs = parse(declared);
  const ours = parse(own);
  if (theirs === undefined || ours === undefined) return "uninterpretable";
  if (theirs[0] !== ours[0]) return theirs[0] > ours[0] ? "newer" : "not-newer";
  return theirs[1] > ours[1] ? "newer" : "not-newer";
}

function parse(version: string): readonly [number, number] | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(version);
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2])];
}
