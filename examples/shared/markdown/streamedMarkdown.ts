/** A message's markdown as blocks of sanitised HTML, kept across the deltas of a streamed message: finished blocks are parsed once, only the open one again. */
import { BlockSplitter } from "./splitBlocks";
import { renderMarkdown, type RenderOptions } from "./renderMarkdown";

/**
 * One top-level block of the message. A finished block is the same object on every later
 * {@link StreamedMarkdown.update} (compare by identity to skip redrawing it); the open block (the
 * last) is a new object whenever its text grew.
 */
export interface MarkdownBlock {
  /** Stable while the text only grows: `<generation>:<index>`. */
  readonly key: string;
  /** Sanitised HTML, ready for `innerHTML`. */
  readonly html: string;
  /** The last block, which the next delta may still change. */
  readonly open: boolean;
  /** The open block ends inside a code fence that has not closed yet. */
  readonly openFence: boolean;
}

/** Options of {@link StreamedMarkdown}. */
export interface StreamedMarkdownOptions {
  /** Turns one block's markdown into sanitised HTML; {@link renderMarkdown} by default (a test may count its calls). */
  readonly render?: ((text: string, options: RenderOptions) => string) | undefined;
}

/**
 * The rendering of one message's text as it streams. `update(text)` with the whole text so far
 * returns its blocks; when `text` extends the previous text (a delta arrived), only the new lines
 * are scanned, the blocks that finished meanwhile are parsed once, and the open block is parsed
 * again. Any other change (an edit, another version) starts over. So a streamed answer of n
 * characters costs the parser about n × (the open block's length ÷ the delta's length), not n²:
 * linear in the answer for blocks of bounded size (examples/shared/test/streamedMarkdown.test.ts
 * measures it).
 *
 * @example
 * const view = new StreamedMarkdown();
 * view.update("Hello, **wor"); // [{ key: "0:0", html: "<p>Hello, **wor</p>", open: true, … }]
 * view.update("Hello, **world**\n\nNext"); // the first block now finished, "Next" open
 */
export class StreamedMarkdown {
  private readonly render: (text: string, options: RenderOptions) => string;
  private seen = "";
  private generation = 0;
  private splitter = new BlockSplitter();
  private finished: MarkdownBlock[] = [];
  /** Where the open block starts in `seen`. */
  private openStart = 0;
  private openBlock: MarkdownBlock | undefined = undefined;
  private parsed = 0;

  constructor(options: StreamedMarkdownOptions = {}) {
    this.render = options.render ?? renderMarkdown;
  }

  /** How many characters were handed to the parser so far: the work this rendering did. */
  get parsedCharacters(): number {
    return this.parsed;
  }

  /** The blocks of `text`, the message's whole text so far. */
  update(text: string): readonly MarkdownBlock[] {
    if (text === this.seen && this.openBlock !== undefined) return this.blocks();
    if (!text.startsWith(this.seen)) this.reset();
    this.seen = text;
    for (const start of this.splitter.scan(text)) {
      const block = text.slice(this.openStart, start);
      this.finished.push({ key: this.keyOf(this.finished.length), html: this.parse(block, false), open: false, openFence: false });
      this.openStart = start;
    }
    const rest = text.slice(this.openStart);
    const openFence = this.splitter.inFence(text);
    this.openBlock = rest === "" ? undefined : { key: this.keyOf(this.finished.length), html: this.parse(rest, openFence), open: true, openFence };
    return this.blocks();
  }

  private blocks(): readonly MarkdownBlock[] {
    return this.openBlock === undefined ? this.finished : [...this.finished, this.openBlock];
  }

  private parse(text: string, openFence: boolean): string {
    this.parsed += text.length;
    return this.render(text, { openFence });
  }

  private keyOf(index: number): string {
    return `${this.generation}:${index}`;
  }

  private reset(): void {
    this.generation++;
    this.seen = "";
    this.splitter = new BlockSplitter();
    this.finished = [];
    this.openStart = 0;
    this.openBlock = undefined;
  }
}
