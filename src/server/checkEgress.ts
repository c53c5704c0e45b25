/**
 * Strict egress (our rule docs/rules.md#S10, docs/server.md): every event the run sends must reach a client
 * exactly as it was sent. The check uses the codecs the client decodes with (`eventCodecs`, whose
 * `is` is the decoder's own fast path), so whatever the client would refuse, strip or rewrite is
 * refused here with a `ProtocolError` before anything is sent.
 */
import * as E from "../protocol/either";
import { excerpt } from "../protocol/describeFailure";
import { eventCodecLookup } from "../protocol/eventCodecLookup";
import { ProtocolError } from "../operators/ProtocolError";
import { decodeEvent } from "../wire/decodeEvent";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { findUnsendable } from "./findUnsendable";

/** This module's codec lookup, with its own one-entry cache (src/protocol/eventCodecLookup.ts). */
const codecOf = eventCodecLookup();

/** The rule id our egress refusals carry (`ProtocolError.rule`); the family is `field-sanity`. */
export const EGRESS_RULE = "S10";

/**
 * Why `event` must not be sent, as a `ProtocolError` (code `field-sanity`, rule `S10`, docs/rules.md#S10), or
 * `undefined` when a client decodes it as it is. Refused: anything but an object with one of the
 * 36 types; a member the codec rejects (`STATE_DELTA` with op `frobnicate`, an interrupt that is
 * `42`); a `null` or missing member the decoder would fill in or drop (send the builder's output:
 * `ev.*` fills defaults); a member the event's type does not declare, at any depth where the
 * protocol has a shape (`metadata` is the extension point and is not looked into); a BigInt; and
 * nesting past `maxDepth` (or a cycle). Never throws: a value that cannot be read is refused too.
 *
 * Cost: the codec's `is` plus one walk of the event, bounded by `maxDepth`; nothing is allocated
 * for an event that passes.
 *
 * @example
 * checkEgress({ type: "NOPE" }, 512)?.message; // 'expected one of the 36 AG-UI event types, but got type "NOPE" …'
 */
export function checkEgress(event: unknown, maxDepth: number): ProtocolError | undefined {
  try {
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      return refuse(event, `expected an event object, but got ${excerpt(event)}`);
    }
    const type = "type" in event ? event.type : undefined;
    if (typeof type !== "string") return refuse(event, `expected an event with a string "type", but got ${excerpt(type)}`);
    const codec = codecOf(type);
    if (codec === undefined) {
      return refuse(event, `expected one of the 36 AG-UI event types, but got type "${type}" (a client fails the run on an unknown type)`);
    }
    if (!codec.is(event)) {
      const rejection = describeRejection(type, event, maxDepth);
      if (rejection !== undefined) return refuse(event, rejection);
    }
    const unsendable = findUnsendable(codec, event, maxDepth);
    if (unsendable !== undefined) {
      const where = unsendable.path === "" ? "the event" : unsendable.path.length > 120 ? `${unsendable.path.slice(0, 120)}…` : unsendable.path;
      return refuse(event, `expected a ${type} event a client receives as it is sent, but ${where} ${unsendable.problem}`);
    }
    return undefined;
  } catch (cause) {
    return refuse(event, `expected an event that can be read, but reading it threw: ${excerpt(cause instanceof Error ? cause.message : cause)}`);
  }
}

/**
 * Why the codec's `is` refused, from what a client makes of the JSON that would be sent: the
 * decoder's refusal, the first piece it would strip (AG-UI 1.1) or the first member it would
 * rewrite (a `null` read as absent, a default filled in). `undefined` when the JSON decodes as it
 * is: `is` also saw members set to `undefined`, which JSON leaves out. Only refused events pay
 * for the JSON copy; a value JSON cannot copy (a BigInt, a cycle) is left to `findUnsendable`.
 */
function describeRejection(type: string, event: object, maxDepth: number): string | undefined {
  let wire: unknown;
  try {
    wire = JSON.parse(JSON.stringify(event));
  } catch {
    return undefined;
  }
  const warnings: DecodeWarning[] = [];
  const decoded = decodeEvent(wire, { maxDepth, onWarning: (warning) => warnings.push(warning) });
  if (E.isLeft(decoded)) return `expected a valid ${type} event, but a client refuses it: ${decoded.left.message}`;
  if (warnings.length > 0) return `expected a ${type} event a client receives as it is sent, but a client strips part of it: ${warnings[0].message}`;
  const original: Record<string, unknown> = { ...(wire as object) }; // the JSON copy of an object is an object
  const rewritten: Record<string, unknown> = { ...decoded.right };
  for (const key of new Set([...Object.keys(original), ...Object.keys(rewritten)])) {
    if (original[key] !== rewritten[key]) {
      return `expected a ${type} event a client receives as it is sent, but the decoder would rewrite /${key} (${excerpt(original[key])} becomes ${excerpt(rewritten[key])}); leave absent members out and fill defaults, as the ev.* builders do`;
    }
  }
  return undefined;
}

function refuse(event: unknown, message: string): ProtocolError {
  return new ProtocolError("field-sanity", EGRESS_RULE, event, message);
}
