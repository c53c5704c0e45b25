/** The Copy buttons' one handler: a click anywhere in rendered markdown that hit a code block's Copy writes that block's code to the clipboard. */

/** What a copy came to: the text is on the clipboard, or the browser refused. */
export type CopyResult = "copied" | "failed";

/** The clipboard's one call we use (navigator.clipboard in a page). */
export interface ClipboardWriter {
  writeText(text: string): Promise<void>;
}

/**
 * Writes `text` to the clipboard and says how it went; never rejects (a browser without
 * clipboard permission, or a page not in focus, is `failed`).
 *
 * @example
 * copyText(messageText(message)).then((result) => setLabel(result === "copied" ? "Copied" : "Copy failed"));
 */
export async function copyText(text: string, clipboard: ClipboardWriter | undefined = globalThis.navigator?.clipboard): Promise<CopyResult> {
  if (clipboard === undefined) return "failed";
  try {
    await clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}

/**
 * The click handler for a container of rendered markdown (one listener, since the blocks are
 * `innerHTML`): when the click hit a `button.copy-code`, copies the code of its `.code-block` and
 * labels the button "Copied" (or "Copy failed") with `data-copied` saying which. Resolves with
 * the result, or `undefined` when the click was not on a Copy button.
 *
 * @example
 * <div className="markdown" onClick={(event) => void copyCodeFromClick(event.nativeEvent)}>…</div>
 */
export async function copyCodeFromClick(event: Event, clipboard?: ClipboardWriter): Promise<CopyResult | undefined> {
  const target = event.target;
  if (!(target instanceof Element)) return undefined;
  const button = target.closest("button.copy-code");
  const code = button?.closest(".code-block")?.querySelector("pre > code");
  if (button === null || button === undefined || code === null || code === undefined) return undefined;
  const result = await copyText(code.textContent ?? "", clipboard ?? globalThis.navigator?.clipboard);
  button.textContent = result === "copied" ? "Copied" : "Copy failed";
  button.setAttribute("data-copied", result);
  return result;
}
