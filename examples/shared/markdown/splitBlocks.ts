/**
 * Where a streamed markdown text splits into top-level blocks, found one line at a time, so a
 * message that grows by deltas is scanned once in all and its finished blocks are parsed once
 * (StreamedMarkdown).
 */

/** What kind of block a line starts, for whether a line after a blank line still belongs to it. */
type BlockKind = "list" | "indented" | "other";

/** An open fenced code block: the fence's character and length (a closing fence is at least as long). */
interface Fence {
  readonly char: "`" | "~";
  readonly length: number;
}

const LIST_ITEM = /^ {0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;
const INDENTED = /^(?: {4}|\t)/;
const LIST_CONTINUATION = /^(?: {2,}|\t)/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;

/**
 * A line scanner over a growing markdown text: it reads each complete line once and says where a
 * top-level block ends. A block ends at a closing code fence, or at a blank line followed by a line
 * that does not continue it (a list goes on with another item or an indented line after a blank
 * line, an indented code block with another indented line). The line still being typed (no line
 * break yet) always belongs to the open block: it may yet turn out to continue it. Lines inside an
 * open fence never end a block, so an unfinished ``` keeps everything after it as code.
 *
 * Not covered, because models rarely write them: HTML blocks that span blank lines, and link
 * reference definitions used in another block (each block is parsed alone).
 *
 * @example
 * const splitter = new BlockSplitter();
 * splitter.scan("# Title\n\nSome text\n"); // [9]: the heading's block ends where "Some text" starts
 */
export class BlockSplitter {
  private kind: BlockKind | undefined = undefined;
  private fence: Fence | undefined = undefined;
  private blankAfterContent = false;
  /** Where the next unread line starts. */
  private next = 0;

  /** Whether the open block is inside a code fence that has not closed yet (the line being typed included). */
  inFence(text: string): boolean {
    if (this.fence !== undefined) return true;
    return FENCE_OPEN.test(text.slice(this.next)) && !BLANK.test(text.slice(this.next));
  }

  /**
   * Reads the complete lines of `text` not read yet and returns the offsets where a new block
   * starts, in order. `text` must extend the text of the previous calls (call `new BlockSplitter`
   * for a text that changed otherwise).
   */
  scan(text: string): number[] {
    const starts: number[] = [];
    let lineEnd = text.indexOf("\n", this.next);
    while (lineEnd !== -1) {
      const start = this.next;
      const line = text.slice(start, lineEnd);
      this.next = lineEnd + 1;
      const ended = this.read(line);
      if (ended === "before") starts.push(start);
      else if (ended === "after") starts.push(this.next);
      lineEnd = text.indexOf("\n", this.next);
    }
    return starts;
  }

  /** One complete line: whether a block ends before it, after it, or not here. */
  private read(line: string): "before" | "after" | undefined {
    if (this.fence !== undefined) {
      if (!closesFence(line, this.fence)) return undefined;
      this.fence = undefined;
      // A fence inside a list item belongs to the item; elsewhere the code block is done.
      if (this.kind === "list") return undefined;
      this.kind = undefined;
      this.blankAfterContent = false;
      return "after";
    }
    if (BLANK.test(line)) {
      if (this.kind !== undefined) this.blankAfterContent = true;
      return undefined;
    }
    let ended: "before" | undefined;
    if (this.kind === undefined) this.kind = kindOf(line);
    else if (this.blankAfterContent && !continues(this.kind, line)) {
      ended = "before";
      this.kind = kindOf(line);
    }
    this.blankAfterContent = false;
    const fence = FENCE_OPEN.exec(line);
    if (fence !== null && (this.kind !== "indented" || ended === "before")) {
      const marks = fence[1];
      // A backtick fence's info string may not hold a backtick (CommonMark 4.5): "```a`b" is inline code.
      if (marks[0] === "~" || !line.slice(fence[0].length).includes("`")) this.fence = { char: marks[0] === "~" ? "~" : "`", length: marks.length };
    }
    return ended;
  }
}

function kindOf(line: string): BlockKind {
  if (LIST_ITEM.test(line)) return "list";
  if (INDENTED.test(line)) return "indented";
  return "other";
}

function continues(kind: BlockKind, line: string): boolean {
  if (kind === "list") return LIST_ITEM.test(line) || LIST_CONTINUATION.test(line);
  if (kind === "indented") return INDENTED.test(line);
  return false;
}

function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return match !== null && match[1][0] === fence.char && match[1].length >= fence.length;
}
