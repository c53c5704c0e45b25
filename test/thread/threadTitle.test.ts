import type { Message } from "../../src/protocol/messages";
import { defaultTitle, previewOf, PREVIEW_LENGTH, TITLE_LENGTH } from "../../src/thread/threadTitle";

describe("defaultTitle", () => {
  test("is the first user message's text, whitespace collapsed", () => {
    const messages: Message[] = [
      { id: "s1", role: "system", content: "You are terse." },
      { id: "u1", role: "user", content: "  Plan a\n weekend   in Lisbon " },
      { id: "u2", role: "user", content: "and Porto" },
    ];
    expect(defaultTitle(messages)).toBe("Plan a weekend in Lisbon");
  });

  test("reads text parts and passes over a user message without text", () => {
    const messages: Message[] = [
      { id: "u1", role: "user", content: [{ type: "image", source: { type: "url", value: "https://example.com/a.png" } }] },
      {
        id: "u2",
        role: "user",
        content: [
          { type: "text", text: "What is" },
          { type: "text", text: "this?" },
        ],
      },
    ];
    expect(defaultTitle(messages)).toBe("What is this?");
  });

  test("cuts a long text at a word boundary, with an ellipsis, within the length", () => {
    const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");
    const title = defaultTitle([{ id: "u1", role: "user", content: words }]);
    expect(title.length).toBeLessThanOrEqual(TITLE_LENGTH);
    expect(title.endsWith("…")).toBe(true);
    expect(words.startsWith(title.slice(0, -1))).toBe(true);
    expect(words[title.length - 1]).toBe(" ");
  });

  test("cuts one long word hard", () => {
    const title = defaultTitle([{ id: "u1", role: "user", content: "x".repeat(500) }]);
    expect(title).toBe(`${"x".repeat(TITLE_LENGTH - 1)}…`);
  });

  test("is empty without a user message that has text", () => {
    expect(defaultTitle([{ id: "a1", role: "assistant", content: "Hello" }])).toBe("");
  });
});

describe("previewOf", () => {
  test("is the last message with text, with its role; activity messages are passed over", () => {
    const messages: Message[] = [
      { id: "u1", role: "user", content: "Hi" },
      { id: "a1", role: "assistant", content: "Hello there" },
      { id: "x1", role: "activity", activityType: "PLAN", content: { steps: [] } },
      { id: "a2", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
    ];
    expect(previewOf(messages)).toEqual({ role: "assistant", preview: "Hello there" });
  });

  test("is cut to the preview length", () => {
    const preview = previewOf([{ id: "u1", role: "user", content: "y ".repeat(400) }]);
    expect(preview?.preview.length).toBeLessThanOrEqual(PREVIEW_LENGTH);
  });

  test("is undefined for a thread without text", () => {
    expect(previewOf([])).toBeUndefined();
  });
});
