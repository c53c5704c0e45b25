/** @jest-environment jsdom */
// StreamedMarkdown over the real marked and DOMPurify (jsdom gives the sanitiser its DOM): the
// blocks of a streamed answer, what is parsed on each delta, and the parser's total work for a
// long answer, counted in characters handed to marked.
import { marked } from "marked";
import { renderMarkdown, type RenderOptions } from "../markdown/renderMarkdown";
import { StreamedMarkdown, type MarkdownBlock } from "../markdown/streamedMarkdown";
import { deltas, longMarkdown } from "./longMarkdown";

/** Streams `text` in `pieces` through a fresh StreamedMarkdown; returns it and the blocks after each delta. */
function stream(pieces: readonly string[], view = new StreamedMarkdown()): { view: StreamedMarkdown; steps: (readonly MarkdownBlock[])[] } {
  const steps: (readonly MarkdownBlock[])[] = [];
  let text = "";
  for (const piece of pieces) {
    text += piece;
    steps.push(view.update(text));
  }
  return { view, steps };
}

/** A StreamedMarkdown that records what it hands the renderer. */
function recorded(): { view: StreamedMarkdown; parsed: string[] } {
  const parsed: string[] = [];
  const view = new StreamedMarkdown({
    render: (text: string, options: RenderOptions) => {
      parsed.push(text);
      return renderMarkdown(text, options);
    },
  });
  return { view, parsed };
}

const html = (blocks: readonly MarkdownBlock[]) => blocks.map((block) => block.html).join("");

describe("StreamedMarkdown", () => {
  it("splits at blank lines between blocks, keeps a list's items and an open fence together", () => {
    const text = "# Title\n\nSome *text*\n\n1. one\n\n2. two\n\n```js\nlet a;\n\nlet b;\n```\nAfter\n";
    const blocks = new StreamedMarkdown().update(text);
    expect(blocks.map((block) => block.open)).toEqual([false, false, false, false, true]);
    expect(blocks.map((block) => block.html)).toEqual([
      "<h1>Title</h1>",
      "<p>Some <em>text</em></p>",
      "<ol><li><p>one</p></li><li><p>two</p></li></ol>",
      expect.stringContaining('<pre><code class="language-js">let a;\n\nlet b;</code></pre>'),
      "<p>After</p>",
    ]);
  });

  it("draws the same page as marked on the whole text, for a long answer", () => {
    const { text } = longMarkdown(1_500);
    const blocks = stream(deltas(text, 9)).steps.at(-1) ?? [];
    const container = document.createElement("div");
    container.innerHTML = html(blocks);
    const whole = document.createElement("div");
    whole.innerHTML = renderMarkdown(text);
    expect(container.textContent).toBe(whole.textContent);
    expect(container.querySelectorAll("h2").length).toBe(whole.querySelectorAll("h2").length);
    expect(container.querySelectorAll(".code-block").length).toBe(whole.querySelectorAll(".code-block").length);
    // And what marked alone makes of it has as many headings and code blocks.
    const plain = document.createElement("div");
    plain.innerHTML = marked.parse(text, { async: false });
    expect(container.querySelectorAll("h2").length).toBe(plain.querySelectorAll("h2").length);
    expect(container.querySelectorAll("pre").length).toBe(plain.querySelectorAll("pre").length);
  });

  it("parses a finished block once: later deltas hand the parser only the open block, and keep the finished block objects", () => {
    const { view, parsed } = recorded();
    // "Next" alone could still become a list item that continues the block: the block ends once its line does.
    expect(view.update("Hello **world**\n\nNext").map((block) => block.open)).toEqual([true]);
    const first = view.update("Hello **world**\n\nNext\n");
    expect(parsed.slice(1)).toEqual(["Hello **world**\n\n", "Next\n"]);
    const second = view.update("Hello **world**\n\nNext\nline, longer");
    expect(parsed.slice(3)).toEqual(["Next\nline, longer"]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second.map((block) => block.key)).toEqual(["0:0", "0:1"]);
  });

  it("draws an unclosed fence as code in progress: what follows it is code, not markdown, until the fence closes", () => {
    const { steps } = stream(["Look:\n\n```py\n# a comment\n", "x = 1\n", "```\n\n# Done\n"]);
    const during = steps[1];
    expect(during.at(-1)?.openFence).toBe(true);
    expect(during.at(-1)?.html).toContain("data-open");
    expect(during.at(-1)?.html).toContain("# a comment\nx = 1");
    expect(html(during)).not.toContain("<h1>");
    const after = steps[2];
    expect(after.some((block) => block.html.includes("data-open"))).toBe(false);
    expect(after.at(-1)?.html).toBe("<h1>Done</h1>");
  });

  it("treats an opening fence still being typed as a fence", () => {
    const blocks = new StreamedMarkdown().update("Code:\n\n```ts");
    expect(blocks.at(-1)?.openFence).toBe(true);
  });

  it("starts over when the text changes other than by growing (an edit, another version)", () => {
    const { view, parsed } = recorded();
    view.update("First answer\n\nwith two blocks");
    const blocks = view.update("Another answer");
    expect(parsed.at(-1)).toBe("Another answer");
    expect(blocks.map((block) => block.key)).toEqual(["1:0"]);
    expect(blocks[0].html).toBe("<p>Another answer</p>");
  });

  it("shows HTML the model writes as text, and leaves no script, handler or javascript: link", () => {
    const blocks = new StreamedMarkdown().update(
      '<img src=x onerror="alert(1)"><script>alert(2)</script>\n\nSay "add <title>" then [click](javascript:alert(3))\n',
    );
    const container = document.createElement("div");
    container.innerHTML = html(blocks);
    expect(container.querySelectorAll("img, script, title").length).toBe(0);
    expect(container.textContent).toContain('<img src=x onerror="alert(1)"><script>alert(2)</script>');
    expect(container.textContent).toContain('Say "add <title>" then click');
    const attributes = [...container.querySelectorAll("*")].flatMap((element) =>
      [...element.attributes].map((attribute) => `${attribute.name}=${attribute.value}`),
    );
    expect(attributes.filter((attribute) => /^on|javascript:/i.test(attribute))).toEqual([]);
  });

  it("puts a Copy button on every code block, with the code escaped", () => {
    const out = renderMarkdown("```html\n<b>bold</b> & more\n```\n");
    const container = document.createElement("div");
    container.innerHTML = out;
    expect(container.querySelector("button.copy-code")?.textContent).toBe("Copy");
    expect(container.querySelector(".code-lang")?.textContent).toBe("html");
    expect(container.querySelector("pre > code")?.textContent).toBe("<b>bold</b> & more");
    expect(container.querySelector("pre b")).toBeNull();
  });
});

describe("the rendering cost of a streamed answer", () => {
  /**
   * Characters handed to marked while `size` characters of answer stream in deltas of 1–16
   * characters. marked alone parses here (the sanitiser's work follows the parser's, and under
   * jsdom it would only make the test slow).
   */
  function parsedFor(size: number): { readonly length: number; readonly parsed: number; readonly deltas: number } {
    const { text } = longMarkdown(size);
    const pieces = deltas(text, 16);
    let parsed = 0;
    const { view } = stream(
      pieces,
      new StreamedMarkdown({
        render: (block: string) => {
          parsed += block.length;
          return marked.parse(block, { async: false });
        },
      }),
    );
    expect(view.parsedCharacters).toBe(parsed);
    return { length: text.length, parsed, deltas: pieces.length };
  }

  it("stays linear: a 50 kB answer costs the parser a bounded multiple of its length, and five times a 10 kB one", () => {
    const small = parsedFor(10_000);
    const large = parsedFor(50_000);
    // Each delta parses the open block again (a few hundred characters here), and each block once
    // more when it finishes; re-parsing the whole text on every delta would be about
    // length² ÷ (2 × 8.5) = 150 million characters for 50 kB, 3,000 times its length (measured: 12.6 per character here).
    expect(large.parsed).toBeLessThanOrEqual(40 * large.length);
    const perCharacterSmall = small.parsed / small.length;
    const perCharacterLarge = large.parsed / large.length;
    expect(perCharacterLarge / perCharacterSmall).toBeLessThan(1.1);
    expect(large.parsed / small.parsed).toBeLessThan(5.5 * (large.length / small.length / 5));
  });
});
