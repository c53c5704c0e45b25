/**
 * docs/contributing.md#lint: ESLint is switched off only for one line at a time, naming the rule and
 * saying why; never for a file or a block, and never reconfigured from inside a file.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["src", "test", "e2e", "bench", "examples"];
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED = new Set(["node_modules", "dist", ".angular"]);

// Spelled in two parts so that this file's own text is not a directive.
const ESLINT = "eslint";
const DIRECTIVE = new RegExp(`(?://|/\\*)\\s*${ESLINT}(?:-disable(?:-next-line|-line)?|-enable|-env|\\s)[^\\n]*`, "g");
const PER_LINE = new RegExp(`^(?://|/\\*)\\s*${ESLINT}-disable(?:-next-line|-line)\\s+(\\S[^\\n]*?)\\s+--\\s+(\\S.*)$`);

/**
 * What is wrong with each ESLint directive comment in `text`: a file or block disable, an inline
 * configuration, or a per-line disable without a rule or without a reason after ` -- `.
 *
 * @example
 * badDirectives(readFileSync(file, "utf8")); // [] when every directive is a per-line disable with a reason
 */
function badDirectives(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(DIRECTIVE)) {
    const line = text.slice(0, match.index).split("\n").length;
    const comment = match[0].replace(/\s*\*\/.*$/, "").trim();
    if (!PER_LINE.test(comment)) {
      const perLine = comment.includes(`${ESLINT}-disable-next-line`) || comment.includes(`${ESLINT}-disable-line`);
      found.push(
        `${line}: ${perLine ? "a per-line disable needs a rule and a reason (`-- why`)" : `only per-line disables are allowed, but got "${comment}"`}`,
      );
    }
  }
  return found;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

describe("the directive check", () => {
  const next = `// ${ESLINT}-disable-next-line`;

  it("accepts a per-line disable with a rule and a reason", () => {
    expect(badDirectives(`${next} @typescript-eslint/no-unsafe-return -- a JSON copy has the original's type\nreturn JSON.parse(s);`)).toEqual([]);
    expect(badDirectives(`f(); /* ${ESLINT}-disable-line no-console -- the CLI's output */`)).toEqual([]);
  });

  it("refuses a per-line disable without a reason or without a rule", () => {
    expect(badDirectives(`a();\n${next} no-console\nb();`)).toEqual(["2: a per-line disable needs a rule and a reason (`-- why`)"]);
    expect(badDirectives(`${next} -- because`)).toEqual(["1: a per-line disable needs a rule and a reason (`-- why`)"]);
  });

  it("refuses file and block disables and inline configuration", () => {
    expect(badDirectives(`/* ${ESLINT}-disable */\nx();`)).toEqual([`1: only per-line disables are allowed, but got "/* ${ESLINT}-disable"`]);
    expect(badDirectives(`// ${ESLINT}-disable no-console -- all of it`)).toHaveLength(1);
    expect(badDirectives(`/* ${ESLINT} no-console: "off" */`)).toHaveLength(1);
    expect(badDirectives(`// ${ESLINT}-enable`)).toHaveLength(1);
  });

  it("leaves prose that merely mentions the linter alone", () => {
    expect(badDirectives("// run eslint. before pushing\nconst eslintConfig = 1;")).toEqual([]);
  });
});

test.each(FOLDERS)("every ESLint disable in %s/ is per line, with a rule and a reason", (folder) => {
  const files = sourceFiles(path.join(ROOT, folder));
  expect(files.length).toBeGreaterThan(0);
  const bad = files.flatMap((file) => badDirectives(readFileSync(file, "utf8")).map((problem) => `${path.relative(ROOT, file)}:${problem}`));
  expect(bad).toEqual([]);
});
