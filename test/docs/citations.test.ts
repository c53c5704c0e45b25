/**
 * Every document a source comment cites is in the repository, by an id that resolves: each
 * `docs/<page>.md#<anchor>` in src/, test/, examples/, bench/ and e2e/ names a page that exists and an
 * anchor on it (an explicit `<a id="…">` or a heading whose GitHub slug is the anchor), and no
 * citation of the texts that used to live outside the repository (the design page, the rules and
 * wire pages by section number, the seeds) is left.
 */
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(__dirname, "..", "..");
const SCANNED = ["src", "test", "examples", "bench", "e2e"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const CITATION = /docs\/([a-z][a-z0-9-]*)\.md#([A-Za-z0-9._-]*[A-Za-z0-9_])/g;

/**
 * The citations src/ held before they were rewritten into this form (issue #21 §5): the count
 * `grep -rEo "DESIGN ?§ ?…|RULES ?§ ?…|WIRE ?§ ?…|seed 00[0-9]|\b(RULES )?[RCAIESK][0-9]{1,2}a?\b" src`
 * gave 714, of which 80 were rule ids as data (`rule: "R22"`, quoted), which stay as they are; 634
 * were citations. A rewrite may split one into several (`§4, §6` is two pages) but must not lose
 * any; raise the floor when citations are added, never lower it (after the rewrite: 652).
 */
const SRC_CITATION_FLOOR = 634;

// Built from parts so this file does not match itself.
const SECTION = "\u00a7";
const OLD_STYLE: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: "a design section", pattern: new RegExp(`\\bDESIGN(\\.md)? ?${SECTION}`) },
  { name: "a rules section", pattern: new RegExp(`\\bRULES(\\.md)? ?${SECTION}`) },
  { name: "a wire section", pattern: new RegExp(`\\bWIRE(\\.md)? ?${SECTION}`) },
  { name: "a rule id after RULES", pattern: /\bRULES(\.md)? [RCAIESK]\d/ },
  { name: "a seed by number", pattern: /\bseed 00\d/ },
];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules") return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

/** GitHub's heading slug: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const anchorCache = new Map<string, ReadonlySet<string>>();
function anchorsOf(page: string): ReadonlySet<string> | undefined {
  const path = join(ROOT, "docs", `${page}.md`);
  if (!existsSync(path)) return undefined;
  const cached = anchorCache.get(path);
  if (cached) return cached;
  const text = readFileSync(path, "utf8");
  const ids = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
  const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]));
  const anchors = new Set([...ids, ...headings]);
  anchorCache.set(path, anchors);
  return anchors;
}

interface Citation {
  readonly file: string;
  readonly line: number;
  readonly page: string;
  readonly anchor: string;
}

function citationsIn(folder: string): Citation[] {
  return sourceFiles(join(ROOT, folder)).flatMap((path) =>
    readFileSync(path, "utf8")
      .split("\n")
      .flatMap((text, index) => [...text.matchAll(CITATION)].map((m) => ({ file: relative(ROOT, path), line: index + 1, page: m[1], anchor: m[2] }))),
  );
}

const self = relative(ROOT, __filename);

describe("citations of the project's documents", () => {
  test.each(SCANNED)("every docs/<page>.md#<anchor> in %s/ names a page and an anchor that exist", (folder) => {
    const unresolved = citationsIn(folder)
      .filter((c) => !anchorsOf(c.page)?.has(c.anchor))
      .map((c) => `${c.file}:${c.line}: docs/${c.page}.md#${c.anchor}`);
    expect(unresolved).toEqual([]);
  });

  test.each(SCANNED)("no citation of a text outside the repository is left in %s/", (folder) => {
    const left = sourceFiles(join(ROOT, folder))
      .filter((path) => relative(ROOT, path) !== self)
      .flatMap((path) =>
        readFileSync(path, "utf8")
          .split("\n")
          .flatMap((text, index) =>
            OLD_STYLE.filter(({ pattern }) => pattern.test(text)).map(({ name }) => `${relative(ROOT, path)}:${index + 1}: ${name}: ${text.trim()}`),
          ),
      );
    expect(left).toEqual([]);
  });

  test(`src/ keeps at least ${SRC_CITATION_FLOOR} citations (none lost in the rewrite)`, () => {
    expect(citationsIn("src").length).toBeGreaterThanOrEqual(SRC_CITATION_FLOOR);
  });

  test("every link to an anchor inside docs/ and README.md lands on one", () => {
    const pages = [
      ...readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
      "README.md",
    ];
    const broken = pages.flatMap((page) =>
      [...readFileSync(join(ROOT, page), "utf8").matchAll(/\]\((?:(?:docs\/)?([\w-]+)\.md)?#([^)\s]+)\)/g)]
        // README's links to its own headings are left to the reader; every other link is checked.
        .filter((m) => !(page === "README.md" && m[1] === undefined))
        .filter((m) => !anchorsOf(m[1] ?? page.replace(/^docs\//, "").replace(/\.md$/, ""))?.has(decodeURIComponent(m[2])))
        .map((m) => `${page}: ${m[0]}`),
    );
    expect(broken).toEqual([]);
  });

  test("every rule id the library reports as data (a ProtocolError's `rule`, a finding's `rule`) has an anchor in docs/rules.md", () => {
    const ids = new Set(
      sourceFiles(join(ROOT, "src")).flatMap((path) => [...readFileSync(path, "utf8").matchAll(/["'`]([RCAIESK]\d{1,2}a?)["'`]/g)].map((m) => m[1])),
    );
    expect(ids.size).toBeGreaterThan(40);
    expect([...ids].filter((id) => !anchorsOf("rules")?.has(id))).toEqual([]);
  });

  test("the anchor check reads explicit anchors and heading slugs, and refuses what is not there", () => {
    const rules = anchorsOf("rules");
    expect(rules?.has("R22")).toBe(true);
    expect(rules?.has("R99")).toBe(false);
    expect(anchorsOf("wire")?.has("4.10")).toBe(true);
    expect(anchorsOf("no-such-page")).toBeUndefined();
    expect(slug("`POST {url}/connect`: join or resume a thread")).toBe("post-urlconnect-join-or-resume-a-thread");
  });
});
