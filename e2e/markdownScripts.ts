/**
 * What the markdown suite's stand-in agents answer (e2e/markdown.e2e.test.ts): an answer with a
 * heading, a list and a code block; one that stops inside an open code fence until the test lets
 * it go on; a long answer; each after a line of reasoning. Shared by the task board's agent
 * (markdownAgent) and the AI chat's model (markdownModel).
 */
import { longMarkdown } from "../examples/shared/test/longMarkdown";

/** The code block of {@link MARKDOWN_ANSWER}, as Copy puts it on the clipboard. */
export const SNIPPET = 'import { Session } from "agui-rx/client";\n\nconst session = new Session(transport);\nsession.send("<b>hi</b> & bye");';

/** An answer with the usual markdown: a heading, emphasis, inline code, a list, a fenced block. */
export const MARKDOWN_ANSWER = [
  "## Sending a message",
  "",
  "Create a **Session** over a transport, then call `send`:",
  "",
  "1. make the transport",
  "2. make the session",
  "",
  "```ts",
  SNIPPET,
  "```",
  "",
  "That is all.",
].join("\n");

/** An answer held inside its code block: the part before the hold, and the rest. */
export const FENCE_BEFORE = "Here is the script:\n\n```python\nimport sys\n# not a heading while the fence is open\nprint(";
export const FENCE_AFTER = '"done")\n```\n\nRun it with `python script.py`.';

/** The long answer: about 50 kB. */
export const LONG = longMarkdown(50_000);

/** The reasoning line before every answer. */
export const REASONING = "The user asked for an example; a short one with code will do.";

/** One scripted answer: the text, where (if anywhere) it waits for the test, and how large its deltas are. */
export interface ScriptedAnswer {
  readonly text: string;
  /** The answer waits for the test's release after this many characters. */
  readonly holdAt?: number | undefined;
  readonly deltaSize: number;
}

/**
 * The answer to the user's text: "markdown" → {@link MARKDOWN_ANSWER}, "fence" → the held answer,
 * "long" → {@link LONG}, anything else a one-line answer.
 *
 * @example
 * answerTo("show me markdown").text === MARKDOWN_ANSWER // true
 */
export function answerTo(userText: string): ScriptedAnswer {
  if (/fence/i.test(userText)) return { text: FENCE_BEFORE + FENCE_AFTER, holdAt: FENCE_BEFORE.length, deltaSize: 5 };
  if (/long/i.test(userText)) return { text: LONG.text, deltaSize: 24 };
  if (/markdown/i.test(userText)) return { text: MARKDOWN_ANSWER, deltaSize: 6 };
  return { text: "Noted.", deltaSize: 6 };
}

/** `text` in pieces of `size` characters. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** A gate a scripted answer waits at: `reached` once it stands there, `release()` lets it go on. */
export interface Gate {
  readonly reached: Promise<void>;
  release(): void;
  /** The answer's side: says it arrived, then waits for the release. */
  wait(): Promise<void>;
}

/**
 * A fresh gate.
 *
 * @example
 * const gate = newGate(); await gate.reached; gate.release();
 */
export function newGate(): Gate {
  let reach = (): void => undefined;
  let release = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    release,
    wait: () => {
      reach();
      return released;
    },
  };
}
