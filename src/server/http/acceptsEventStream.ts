/** Content negotiation for the one media type this server answers with. */

/**
 * True when an `Accept` header allows `text/event-stream`: the header is absent or empty, or one
 * of its media ranges (`text/event-stream`, `text/*`, `*\/*`) matches it with a q-value above 0.
 * The most specific matching range decides, as RFC 9110 §12.5.1 says, so
 * `text/*, text/event-stream;q=0` refuses. Parameters other than `q` are ignored.
 *
 * @example
 * acceptsEventStream(null)                                   // true
 * acceptsEventStream("application/vnd.ag-ui.event+proto")    // false
 * acceptsEventStream("application/vnd.ag-ui.event+proto, text/event-stream;q=0.5") // true
 */
export function acceptsEventStream(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  // Specificity of the best match so far: 3 exact, 2 `text/*`, 1 `*/*`, 0 none.
  let specificity = 0;
  let quality = 0;
  for (const range of accept.split(",")) {
    const [mediaRange = "", ...params] = range.split(";");
    const media = mediaRange.trim().toLowerCase();
    const rank = media === "text/event-stream" ? 3 : media === "text/*" ? 2 : media === "*/*" ? 1 : 0;
    if (rank === 0 || rank < specificity) continue;
    specificity = rank;
    quality = qualityOf(params);
  }
  return quality > 0;
}

/** The `q` parameter of a media range (1 when absent, 0 when unreadable). */
function qualityOf(params: readonly string[]): number {
  for (const param of params) {
    const [name = "", value = ""] = param.split("=");
    if (name.trim().toLowerCase() !== "q") continue;
    const q = Number(value.trim());
    return Number.isFinite(q) ? q : 0;
  }
  return 1;
}
