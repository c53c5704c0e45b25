/**
 * docs/recipes.md, as a reader would use it: every ```ts block type-checks as its own module
 * against the public entries, runs to its end, and prints exactly the ```text block shown under it.
 */
import { extractSnippets, typeErrors } from "./snippets";
import { runSnippet } from "./runSnippet";

const FILE = "docs/recipes.md";
const snippets = extractSnippets(FILE);

test("every recipe has its code and the output it prints", () => {
  expect(snippets.length).toBeGreaterThanOrEqual(11);
  for (const snippet of snippets) expect([snippet.line, snippet.output === undefined]).toEqual([snippet.line, false]);
});

test("every recipe compiles", () => {
  expect(typeErrors(FILE, snippets, "esm")).toEqual([]);
}, 120_000);

describe.each(snippets.map((snippet) => [`the recipe at ${FILE}:${snippet.line}`, snippet] as const))("%s", (_name, snippet) => {
  test("runs and prints the output shown", async () => {
    const { output } = await runSnippet(snippet);
    expect(output).toBe(snippet.output);
  }, 30_000);
});
