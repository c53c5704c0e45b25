/** Splits an SSE body, fed in pieces, into the raw text of its blocks (docs/observability.md#inspector). */

/**
 * Cuts SSE text into blocks exactly as received: each block is its lines and the blank line that
 * ends it (LF, CR or CRLF, also a CRLF split across two pieces), so that the blocks joined give
 * back the body. Blank lines before a block's first line belong to that block (SSE ignores them).
 * Only the new text of each `feed` is scanned. A block that grows past `max` characters is cut:
 * `onOversized` hears of it once with its first characters, and the rest of it, up to its blank
 * line, is skipped, so memory stays bounded whatever the body. The inspector's own reader of the
 * raw bytes; the decoder (`SseFrameReader`) reads them for the Session separately.
 *
 * @example
 * const blocks: string[] = [];
 * const splitter = new SseBlockSplitter(1 << 20, (block) => blocks.push(block), () => undefined);
 * splitter.feed("data: a\r");
 * splitter.feed("\n\r\ndata: b\n\n"); // blocks: ["data: a\r\n\r\n", "data: b\n\n"]
 */
export class SseBlockSplitter {
  private buffer = "";
  /** Where scanning resumes in `buffer`. */
  private scanned = 0;
  /** Where the current line starts in `buffer`. */
  private lineStart = 0;
  /** Whether the current block has a non-blank line yet. */
  private hasContent = false;
  /** Inside an oversized block, skipping to its end. */
  private skipping = false;

  constructor(
    private readonly max: number,
    private readonly onBlock: (block: string) => void,
    private readonly onOversized: (start: string) => void,
  ) {}

  /** Consumes the next piece of text. */
  feed(text: string): void {
    this.buffer += text;
    const buffer = this.buffer;
    let pos = this.scanned;
    let blockStart = 0;
    while (pos < buffer.length) {
      const code = buffer.charCodeAt(pos);
      if (code !== 0x0a && code !== 0x0d) {
        pos++;
        continue;
      }
      // A CR at the very end may be the first half of a CRLF: wait for the next piece.
      if (code === 0x0d && pos + 1 === buffer.length) break;
      const end = code === 0x0d && buffer.charCodeAt(pos + 1) === 0x0a ? pos + 2 : pos + 1;
      const blank = pos === this.lineStart;
      this.lineStart = end;
      pos = end;
      if (!blank) this.hasContent = true;
      else if (this.hasContent || this.skipping) {
        if (!this.skipping) this.onBlock(buffer.slice(blockStart, end));
        this.skipping = false;
        this.hasContent = false;
        blockStart = end;
      }
    }
    this.buffer = buffer.slice(blockStart);
    this.scanned = pos - blockStart;
    this.lineStart -= blockStart;
    if (this.buffer.length > this.max) {
      if (!this.skipping) this.onOversized(this.buffer.slice(0, 200));
      this.skipping = true;
      // Keep only the unfinished line's end, enough to see the blank line that ends the block.
      const keep = this.buffer.slice(this.lineStart);
      this.buffer = keep.length > 2 ? keep.slice(-2) : keep;
      this.scanned = this.buffer.length;
      this.lineStart = keep.length === 0 ? 0 : -1;
    }
  }

  /** The body ended: what is left (a block without its blank line) is given back, then forgotten. */
  finish(): string {
    const rest = this.skipping ? "" : this.buffer;
    this.reset();
    return rest;
  }

  /** Starts over for a new body (a reconnection): what was left is dropped. */
  reset(): void {
    this.buffer = "";
    this.scanned = 0;
    this.lineStart = 0;
    this.hasContent = false;
    this.skipping = false;
  }
}
