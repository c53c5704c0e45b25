/**
 * The protocol's defaults, in one place (1.0.0 schemas; 1.1 streaming): what an absent member
 * means. The codecs fill them on decode (`withDefault`), and every reader of an event that may not
 * have been decoded (events handed over as objects, e.g. to `applyEvents()`) reads them through
 * these functions, so the same input gives the same result by either path.
 */
import type { TextMessageRole } from "./messages";

/**
 * The role of a text message opened without one (TEXT_MESSAGE_START, a first TEXT_MESSAGE_CHUNK).
 *
 * @example
 * const role = event.role ?? DEFAULT_TEXT_ROLE;
 */
export const DEFAULT_TEXT_ROLE = "assistant" satisfies TextMessageRole;

/**
 * ACTIVITY_SNAPSHOT's `replace` when absent.
 *
 * @example
 * const replaces = event.replace ?? DEFAULT_ACTIVITY_REPLACE;
 */
export const DEFAULT_ACTIVITY_REPLACE = true;

/**
 * The role of a TEXT_MESSAGE_START, its default applied (an undecoded object may lack it).
 *
 * @example
 * textMessageRole({ type: "TEXT_MESSAGE_START", messageId: "m1" } as never) // "assistant"
 */
export function textMessageRole(event: { readonly role?: TextMessageRole | null | undefined }): TextMessageRole {
  return event.role ?? DEFAULT_TEXT_ROLE;
}

/**
 * Whether an ACTIVITY_SNAPSHOT replaces, its default applied (absent or `null` means `true`).
 *
 * @example
 * activityReplaces({ replace: false }) // false
 */
export function activityReplaces(event: { readonly replace?: boolean | null | undefined }): boolean {
  return event.replace ?? DEFAULT_ACTIVITY_REPLACE;
}
