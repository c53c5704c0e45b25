/**
 * The nesting limit applied to every JSON value the library decodes, on both ends (request bodies,
 * `input.state`, SSE events). Deep values are legal JSON, but every recursive consumer downstream
 * (io-ts, error excerpts, `JSON.stringify`, user code) overflows the call stack on them, so they are
 * refused at the door with the path and the limit, never half-processed.
 */

/** The default nesting limit: 512 levels of arrays and objects, far beyond any real event or state. */
export const DEFAULT_MAX_JSON_DEPTH = 512;

/** Where a value nests too deep: the JSON Pointer of the first container past the limit. */
export interface TooDeep {
  /** RFC 6901 pointer to the first container at depth `limit + 1`. */
  readonly path: string;
  /** The limit that was exceeded. */
  readonly limit: number;
}

/**
 * Finds the first container nested deeper than `limit`. An array or object is depth 1, its
 * container members depth 2, and so on; scalars add nothing. The walk recurses at most `limit + 1`
 * levels (so it cannot overflow on the values it refuses), allocates nothing on values within the
 * limit, and stops at the first offender. Returns `undefined` when the value is within the limit.
 *
 * @example
 * findTooDeep([[[]]], 2);        // { path: "/0/0", limit: 2 }
 * findTooDeep({ a: [1] }, 512);  // undefined
 */
export function findTooDeep(value: unknown, limit: number = DEFAULT_MAX_JSON_DEPTH): TooDeep | undefined {
  const segments = offendingPath(value, 1, limit);
  if (segments === undefined) return undefined;
  const path = segments
    .reverse()
    .map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`)
    .join("");
  return { path, limit };
}

/** The path to the first too-deep container, innermost segment first, or `undefined`. */
function offendingPath(value: unknown, depth: number, limit: number): string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (depth > limit) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = offendingPath(value[i], depth + 1, limit);
      if (found !== undefined) return (found.push(String(i)), found);
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const found = offendingPath((value as Record<string, unknown>)[key], depth + 1, limit);
    if (found !== undefined) return (found.push(key), found);
  }
  return undefined;
}
