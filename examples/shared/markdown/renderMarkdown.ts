/** One markdown block to sanitised HTML: `marked` parses it, DOMPurify cleans what it made, code blocks get a Copy button. */
import DOMPurify from "dompurify";
import { Marked, type Token, type Tokens } from "marked";

/** Options of {@link renderMarkdown}. */
export interface RenderOptions {
  /** The text ends inside a code fence that has not closed yet (a streamed answer in the middle of its code): that code block is marked as in progress. */
  readonly openFence?: boolean | undefined;
}

/** Code blocks whose closing fence has not arrived yet (marked ends them at the end of the text). */
const unfinished = new WeakSet<Token>();

const markdown = new Marked({
  gfm: true,
  renderer: {
    code(token: Tokens.Code): string {
      return codeBlock(token.text, token.lang, unfinished.has(token));
    },
    // HTML a model writes is shown as it was written, not made into elements: "add <title>" keeps
    // its "<title>" (the sanitiser would drop it as a tag), and no markup reaches the page from it.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
  },
});

/**
 * The HTML of `text` (GitHub-flavoured markdown), safe to set as `innerHTML`: HTML in the text is
 * shown as text (a model may write `<script>`, or `"add <title>"` meaning a placeholder), and what
 * marked made is cleaned by DOMPurify all the same (a `javascript:` link loses its target). A fenced code block becomes a `.code-block` with its language and a Copy button
 * (`button.copy-code`; see {@link copyCodeFromClick}), and its code in `pre > code`; with
 * `openFence`, the last code block carries `data-open` (it is still being written). Needs a DOM
 * (`window`) for the sanitiser: a browser, or jsdom in a test.
 *
 * @example
 * renderMarkdown("Run `npm test`:\n\n```sh\nnpm test\n```\n");
 * // '<p>Run <code>npm test</code>:</p>\n<div class="code-block" …><pre><code class="language-sh">npm test</code></pre></div>'
 */
export function renderMarkdown(text: string, options: RenderOptions = {}): string {
  const tokens = markdown.lexer(text);
  if (options.openFence === true) {
    const last = lastBlock(tokens);
    if (last?.type === "code") unfinished.add(last);
  }
  return withoutBreaksBetweenBlocks(DOMPurify.sanitize(markdown.parser(tokens)));
}

/**
 * marked ends every block element with a line break; between elements it is only a text node
 * that would show in the message's `textContent` (what a reader's copy or a test gets).
 */
function withoutBreaksBetweenBlocks(html: string): string {
  return html
    .replace(/(<\/(?:p|h[1-6]|ul|ol|li|blockquote|table|thead|tbody|tr|div|pre|hr)>|<(?:ul|ol|hr|br|blockquote|table|thead|tbody|tr)(?: [^>]*)?>)\n/g, "$1")
    .trim();
}

function lastBlock(tokens: readonly Token[]): Token | undefined {
  for (let index = tokens.length - 1; index >= 0; index--) if (tokens[index].type !== "space") return tokens[index];
  return undefined;
}

function codeBlock(code: string, lang: string | undefined, open: boolean): string {
  const language = (lang ?? "").trim().split(/\s+/)[0];
  const label = language === "" ? "code" : language;
  const codeClass = language === "" ? "" : ` class="language-${escapeHtml(language)}"`;
  return (
    `<div class="code-block" data-testid="code-block"${open ? ' data-open=""' : ""}>` +
    `<div class="code-head"><span class="code-lang">${escapeHtml(label)}</span>` +
    (open ? '<span class="code-writing">writing…</span>' : "") +
    `<button type="button" class="copy-code" data-testid="copy-code" aria-label="Copy ${escapeHtml(label)} code">Copy</button></div>` +
    `<pre><code${codeClass}>${escapeHtml(code)}</code></pre></div>\n`
  );
}

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
