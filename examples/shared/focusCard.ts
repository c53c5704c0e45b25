/**
 * Where keyboard focus goes when a card that waits for the user appears (an approval, a client
 * tool's confirmation): to the card, so a keyboard or screen-reader user lands on its buttons,
 * unless the user is writing (a text box with a draft has focus): their keystrokes stay theirs,
 * and the card's `alertdialog` role still announces it.
 */

/**
 * Focuses `card` (which needs `tabindex="-1"`) unless the element with focus is a text box with
 * text in it. Returns nothing, so it serves as a React callback ref as it is (a stable one: called
 * when the card mounts, not on every render).
 *
 * @example
 * <div className="approval" role="alertdialog" tabIndex={-1} ref={focusCard}>…</div>
 */
export function focusCard(card: HTMLElement | null): void {
  if (card === null || isWriting(card.ownerDocument.activeElement)) return;
  card.focus({ preventScroll: true });
}

/** A text box (textarea, or a text-like input) with a draft in it. */
function isWriting(element: Element | null): boolean {
  if (element === null) return false;
  const tag = element.tagName;
  if (tag !== "TEXTAREA" && tag !== "INPUT") return false;
  return "value" in element && typeof element.value === "string" && element.value !== "";
}
