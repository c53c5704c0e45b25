/** @jest-environment jsdom */
// The Copy buttons' handler on rendered markdown, with a clipboard that records what it was given
// (or refuses), and which question a send takes the pane to.
import { sentQuestion } from "../followBottom";
import { copyCodeFromClick, copyText, type ClipboardWriter } from "../markdown/copyCode";
import { renderMarkdown } from "../markdown/renderMarkdown";

function clipboard(refuse = false): ClipboardWriter & { readonly written: string[] } {
  const written: string[] = [];
  return {
    written,
    writeText: (text: string) => (refuse ? Promise.reject(new DOMException("denied", "NotAllowedError")) : Promise.resolve(void written.push(text))),
  };
}

function rendered(markdown: string): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = renderMarkdown(markdown);
  document.body.append(container);
  return container;
}

/** A click on `target`, as the container's listener receives it. */
function clickOn(target: Element): Event {
  const event = new MouseEvent("click", { bubbles: true });
  Object.defineProperty(event, "target", { value: target });
  return event;
}

describe("copyCodeFromClick", () => {
  it("copies the code of the block whose Copy was clicked, and labels that button", async () => {
    const container = rendered("```sh\nnpm test\n```\n\n```ts\nconst a = 1 < 2;\n```\n");
    const board = clipboard();
    const second = container.querySelectorAll("button.copy-code")[1];
    expect(await copyCodeFromClick(clickOn(second), board)).toBe("copied");
    expect(board.written).toEqual(["const a = 1 < 2;"]);
    expect(second.textContent).toBe("Copied");
    expect(second.getAttribute("data-copied")).toBe("copied");
    expect(container.querySelectorAll("button.copy-code")[0].textContent).toBe("Copy");
  });

  it("ignores a click elsewhere, and says so when the clipboard refuses", async () => {
    const container = rendered("Some `code`\n\n```\nx\n```\n");
    expect(await copyCodeFromClick(clickOn(container.querySelector("p") ?? container), clipboard())).toBeUndefined();
    const button = container.querySelector("button.copy-code") ?? container;
    expect(await copyCodeFromClick(clickOn(button), clipboard(true))).toBe("failed");
    expect(button.textContent).toBe("Copy failed");
  });
});

describe("copyText", () => {
  it("resolves with what happened, never rejects", async () => {
    const board = clipboard();
    await expect(copyText("hello", board)).resolves.toBe("copied");
    expect(board.written).toEqual(["hello"]);
    await expect(copyText("hello", clipboard(true))).resolves.toBe("failed");
  });
});

describe("sentQuestion", () => {
  it("is the last message's id when the user sent it, else undefined", () => {
    expect(sentQuestion([])).toBeUndefined();
    expect(sentQuestion([{ id: "u1", role: "user" }])).toBe("u1");
    expect(
      sentQuestion([
        { id: "u1", role: "user" },
        { id: "a1", role: "assistant" },
      ]),
    ).toBeUndefined();
    expect(
      sentQuestion([
        { id: "u1", role: "user" },
        { id: "a1", role: "assistant" },
        { id: "u2", role: "user" },
      ]),
    ).toBe("u2");
  });
});
