/**
 * Every ```ts / ```tsx block of the README compiles as a user would paste it: each block its own
 * module, importing `agui-rx`, `agui-rx/server`, … by name, in an ES module project and in a
 * CommonJS one (where top-level await is an error). And the README's first screen says how to set up.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT, extractSnippets, typeErrors } from "./snippets";

const snippets = extractSnippets("README.md");

test("the README has its snippets (server, client, agents, React, Angular, the wire)", () => {
  expect(snippets.length).toBeGreaterThanOrEqual(8);
  expect(snippets.some((snippet) => snippet.lang === "tsx")).toBe(true);
});

test("every README snippet compiles in an ES module project", () => {
  expect(typeErrors("README.md", snippets, "esm")).toEqual([]);
}, 120_000);

// Angular and the Vercel AI SDK ship only ES modules (a project using them is one), so their
// snippets are not CommonJS candidates.
const ESM_ONLY = /from "(@angular\/|ai"|agui-rx\/ai")/;

test("every other README snippet also compiles in a CommonJS project (no top-level await)", () => {
  const candidates = snippets.filter((snippet) => !ESM_ONLY.test(snippet.code));
  expect(candidates.length).toBe(snippets.length - 2);
  expect(typeErrors("README.md", candidates, "cjs")).toEqual([]);
}, 120_000);

test("the check is real: a wrong import or top-level await in a CommonJS project fails", () => {
  const broken = [
    { lang: "ts" as const, line: 1, code: 'import { Session } from "agui-rx/server";\nexport { Session };' },
    { lang: "ts" as const, line: 10, code: 'import { serve } from "agui-rx/node";\nawait serve(async () => new Response());\nexport {};' },
  ];
  const errors = typeErrors("broken.md", broken, "cjs");
  expect(errors).toEqual([
    expect.stringMatching(/^broken\.md:1: TS2305: Module '"agui-rx\/server"' has no exported member 'Session'/),
    expect.stringMatching(/^broken\.md:11: TS1309: The current file is a CommonJS module and cannot use 'await' at the top level/),
  ]);
}, 120_000);

test("the first screen shows the setup: npm ci, npm start, npm test, what the other suites need, and where durability is described", () => {
  const firstScreen = readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").slice(0, 40).join("\n");
  for (const command of ["npm ci", "npm start", "npm test", "npm run test:e2e", "chromium", "redis-server"])
    expect([command, firstScreen.includes(command)]).toEqual([command, true]);
  expect(firstScreen).toContain("docs/recipes.md");
  expect(firstScreen).toMatch(/^Durable threads: .*\(docs\/durability\.md\)/m);
});
