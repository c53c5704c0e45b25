/** Which request bodies the handler reads. */

/**
 * True for `application/json` and any `application/*+json` type, whatever their parameters
 * (`charset=utf-8`); false for a missing header and anything else.
 *
 * @example
 * isJsonMediaType("application/json; charset=utf-8") // true
 * isJsonMediaType("text/plain")                      // false
 */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const media = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return media === "application/json" || (media.startsWith("application/") && media.endsWith("+json"));
}
