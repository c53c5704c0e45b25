/** A long model answer in markdown, made to a size: what the streamed-rendering tests feed the pages and the StreamedMarkdown. */

/** What {@link longMarkdown} made: the text and how many headings and code blocks it holds. */
export interface LongMarkdown {
  readonly text: string;
  readonly sections: number;
  readonly codeBlocks: number;
  /** The last section's heading: on screen once the whole answer is. */
  readonly lastHeading: string;
}

/**
 * An answer of at least `size` characters in sections such as a model writes: a heading, a
 * paragraph with inline code and emphasis, a list, and a fenced code block, separated by blank
 * lines. Deterministic: the same size gives the same text.
 *
 * @example
 * longMarkdown(50_000).text.length >= 50_000 // true
 */
export function longMarkdown(size: number): LongMarkdown {
  const parts: string[] = [];
  let length = 0;
  let sections = 0;
  while (length < size) {
    sections++;
    const section = [
      `## Step ${sections}`,
      "",
      `Step ${sections} reads the **input** once and keeps \`state${sections}\` between calls, so the next delta starts where this one ended. ` +
        "A paragraph of this length is what a model writes between two code samples.",
      "",
      `- first, check the value of \`item${sections}\``,
      "- then write it, *once*",
      `- finally, count ${sections} as done`,
      "",
      "```ts",
      `export function step${sections}(input: string): number {`,
      `  // # not a heading: code, even while the fence is open`,
      `  return input.length + ${sections};`,
      "}",
      "```",
      "",
      "",
    ].join("\n");
    parts.push(section);
    length += section.length;
  }
  return { text: parts.join(""), sections, codeBlocks: sections, lastHeading: `Step ${sections}` };
}

/**
 * `text` cut into deltas of 1 to `max` characters (a fixed pseudo-random walk, so a run is
 * repeatable), the way a model's tokens arrive.
 *
 * @example
 * deltas("hello world", 4).join("") // "hello world"
 */
export function deltas(text: string, max: number): string[] {
  const out: string[] = [];
  let seed = 7;
  for (let at = 0; at < text.length;) {
    seed = (seed * 48271) % 2147483647; // Park–Miller: exact in doubles, unlike a 32-bit LCG's product
    const size = 1 + (seed % max);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}
