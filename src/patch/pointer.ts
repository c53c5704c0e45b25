/**
 * JSON Pointer (RFC 6901) tokens for the patch layer: parsing with `~1` → `/` and `~0` → `~`,
 * escaping the other way, and the one safety rule the patch layer adds on top of the RFC:
 * `__proto__`, `constructor` and `prototype` are never accepted as a segment, so a patch from the
 * wire can neither reach nor create an object's prototype chain.
 */
import { left, right, type Either } from "../protocol/either";

/** Segments a pointer may not contain, whatever the target: they name prototype machinery. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The lengths of the forbidden segments (9 and 11): checking the length first spares most tokens a string hash. */
const FORBIDDEN_LENGTHS: ReadonlySet<number> = new Set([...FORBIDDEN_SEGMENTS].map((segment) => segment.length));

function mayBeForbidden(token: string): boolean {
  return FORBIDDEN_LENGTHS.has(token.length);
}

/** Whether a decoded segment is one of the forbidden ones. */
export function isForbiddenSegment(segment: string): boolean {
  return FORBIDDEN_SEGMENTS.has(segment);
}

/**
 * Splits a JSON Pointer into its decoded reference tokens; `""` (the whole document) is `[]`.
 * Left carries the reason: a pointer that does not start with `/`, a `~` not followed by `0` or `1`,
 * or a forbidden segment (named in the reason).
 *
 * @example
 * parsePointer("/a~1b/~0c/0"); // right(["a/b", "~c", "0"])
 * parsePointer("/__proto__/x"); // left('segment "__proto__" is not allowed (prototype pollution)')
 */
export function parsePointer(pointer: string): Either<string, readonly string[]> {
  if (pointer === "") return right([]);
  if (pointer[0] !== "/") return left(`a JSON Pointer must be "" or start with "/", got ${JSON.stringify(pointer)}`);
  // Scanned with indexOf rather than `split("/")`: about 3× faster on the short pointers of state
  // deltas, and this runs for every operation of every patch.
  const tokens: string[] = [];
  const escaped = pointer.includes("~"); // one scan of the pointer instead of one per token
  let start = 1;
  for (;;) {
    const end = pointer.indexOf("/", start);
    let token = end === -1 ? pointer.slice(start) : pointer.slice(start, end);
    if (escaped && token.includes("~")) {
      if (/~(?![01])/.test(token)) {
        return left(`segment ${JSON.stringify(token)} has a "~" not followed by "0" or "1"`);
      }
      // ~1 first, then ~0, so that "~01" decodes to "~1" and not to "/" (RFC 6901 §4).
      token = token.replace(/~1/g, "/").replace(/~0/g, "~");
    }
    if (mayBeForbidden(token) && FORBIDDEN_SEGMENTS.has(token)) return left(`segment ${JSON.stringify(token)} is not allowed (prototype pollution)`);
    tokens.push(token);
    if (end === -1) break;
    start = end + 1;
  }
  return right(tokens);
}

/**
 * Escapes one member name or index for use as a pointer segment (`~` → `~0`, `/` → `~1`).
 *
 * @example
 * escapeSegment("a/b~c"); // "a~1b~0c"
 */
export function escapeSegment(segment: string): string {
  if (!segment.includes("~") && !segment.includes("/")) return segment;
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Builds a pointer from decoded tokens; the inverse of `parsePointer` for allowed segments.
 *
 * @example
 * formatPointer(["a/b", "0"]); // "/a~1b/0"
 */
export function formatPointer(tokens: readonly string[]): string {
  let out = "";
  for (const token of tokens) out += "/" + escapeSegment(token);
  return out;
}
