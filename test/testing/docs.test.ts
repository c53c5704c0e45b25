/**
 * docs/testing.md as a reader uses it: every ```ts / ```tsx block type-checks as its own module
 * against the public entries (the testing kit's included), and every block followed by a ```text
 * block runs and prints exactly that.
 */
import { extractSnippets, typeErrors } from "../docs/snippets";
import { runSnippet } from "../docs/runSnippet";

const FILE = "docs/testing.md";
const snippets = extractSnippets(FILE);
const runnable = snippets.filter((snippet) => snippet.output !== undefined);

test("the page has a worked example of each part: the scripted model, record and replay, the in-process endpoint, a list and marbles", () => {
  const code = snippets.map((snippet) => snippet.code).join("\n");
  for (const name of [
    "scriptedModel(",
    "recordSse(",
    "replayRecording(",
    "inProcessEndpoint(",
    "summarize(",
    "marbleScheduler()",
    'from "node:test"',
    "render(",
  ]) {
    expect([name, code.includes(name)]).toEqual([name, true]);
  }
  expect(runnable.length).toBeGreaterThanOrEqual(5);
});

test("every snippet compiles in an ES module project", () => {
  expect(typeErrors(FILE, snippets, "esm")).toEqual([]);
}, 180_000);

describe.each(runnable.map((snippet) => [`the example at ${FILE}:${snippet.line}`, snippet] as const))("%s", (_name, snippet) => {
  test("runs and prints the output shown", async () => {
    const { output } = await runSnippet(snippet);
    expect(output).toBe(snippet.output);
  }, 30_000);
});
