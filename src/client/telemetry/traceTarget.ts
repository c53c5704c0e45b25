/** Which requests may carry a Session's trace context (docs/observability.md#client): same-origin ones, and the origins an application allowed. */

/**
 * A test of request URLs: `true` for a URL on the page's origin (`location.origin`), or one that
 * `allowed` names (a string is an origin, a RegExp is tested against the whole URL); with no page
 * (Node, no `location`), `true` for every URL, since the transport only requests the endpoint the
 * application named and nothing preflights it. A URL that does not parse, or an allowed entry that
 * is not a URL, never matches.
 *
 * @example
 * const mayCarry = traceTarget(["https://agent.example.com"]);
 * mayCarry("https://agent.example.com/agent"); // true
 * mayCarry("https://elsewhere.example.com/agent"); // false on a page of another origin
 */
export function traceTarget(allowed: readonly (string | RegExp)[] = [], page: () => string | undefined = pageOrigin): (url: string) => boolean {
  const origins = new Set(allowed.flatMap((entry) => (typeof entry === "string" ? originOf(entry) : [])));
  const patterns = allowed.filter((entry): entry is RegExp => entry instanceof RegExp);
  return (url) => {
    const origin = page();
    if (origin === undefined) return true;
    let target: URL;
    try {
      target = new URL(url, origin === "null" ? undefined : origin);
    } catch {
      return false;
    }
    if (target.origin === origin || origins.has(target.origin)) return true;
    return patterns.some((pattern) => {
      pattern.lastIndex = 0; // a global or sticky RegExp keeps where it stopped: test each URL from its start
      return pattern.test(target.href);
    });
  };
}

/** The page's origin (`"null"` for an opaque one, which no request URL has), or `undefined` where there is no page (Node). */
function pageOrigin(): string | undefined {
  return (globalThis as { location?: { origin?: string } }).location?.origin;
}

function originOf(entry: string): string[] {
  try {
    return [new URL(entry).origin];
  } catch {
    return [];
  }
}
