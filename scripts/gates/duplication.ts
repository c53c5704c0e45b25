/**
 * The copy-paste gate's two steps (docs/packaging.md#the-copy-paste-gate): ask jscpd (settings in
 * `.jscpd.json`: six or more lines of the same shape within `src/`) for the pairs of repeated
 * blocks, then hold their count against the budget.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { field, type DuplicationBudget } from "./budgets";
import type { GateVerdict } from "./bundleSize";

/** One side of a pair: a file (relative to the scanned folder) and its line range. */
export interface ClonePlace {
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

/** Two places that hold the same block (the same lines, or the same shape with other names). */
export interface ClonePair {
  readonly first: ClonePlace;
  readonly second: ClonePlace;
  readonly lines: number;
}

/**
 * Runs jscpd with the repository's `.jscpd.json` and returns the pairs it found, from its JSON report.
 *
 * @example
 * const pairs = findClonePairs(process.cwd()); // [{ first: { file: "patch/apply.ts", start: 99, end: 110 }, … }]
 */
export function findClonePairs(root: string): ClonePair[] {
  const output = mkdtempSync(join(tmpdir(), "agui-rx-jscpd-"));
  try {
    const run = spawnSync(
      process.execPath,
      [require.resolve("jscpd/run-jscpd.js"), "--config", join(root, ".jscpd.json"), "--reporters", "json", "--output", output, "--silent"],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
    if (run.status !== 0) throw new Error(`expected jscpd to exit 0, but it exited ${run.status ?? run.signal}: ${run.stderr}`);
    return parseJscpdReport(JSON.parse(readFileSync(join(output, "jscpd-report.json"), "utf8")));
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

/**
 * Reads the pairs out of a jscpd JSON report (`{ duplicates: [{ firstFile, secondFile, lines }] }`),
 * naming what is missing when the report has another shape.
 *
 * @example
 * parseJscpdReport({ duplicates: [] }); // []
 */
export function parseJscpdReport(report: unknown): ClonePair[] {
  const duplicates = field(report, "duplicates");
  if (!Array.isArray(duplicates)) throw new TypeError(`expected a jscpd report with a duplicates array, but got ${JSON.stringify(duplicates) ?? "nothing"}`);
  return duplicates.map((duplicate: unknown, index) => ({
    first: place(field(duplicate, "firstFile"), `duplicates[${index}].firstFile`),
    second: place(field(duplicate, "secondFile"), `duplicates[${index}].secondFile`),
    lines: whole(field(duplicate, "lines"), `duplicates[${index}].lines`),
  }));
}

/**
 * True for a pair whose two places overlap in one file: a run of like lines (a table of codecs, a
 * union's members, a row of getters) that matches itself shifted by a line. That is a list, not a
 * copy, so the gate does not count it.
 *
 * @example
 * isListMatchingItself({ first: { file: "protocol/events.ts", start: 72, end: 106 }, second: { file: "protocol/events.ts", start: 73, end: 107 }, lines: 35 }); // true
 */
export function isListMatchingItself(pair: ClonePair): boolean {
  // Strictly: two blocks that only touch (one ends on the line where the other starts) are two blocks.
  return pair.first.file === pair.second.file && pair.first.start < pair.second.end && pair.second.start < pair.first.end;
}

/**
 * True when both places hold only property declarations (and their doc comments): two options
 * interfaces that each list `readonly name?: number | undefined;` lines match token for token once
 * identifiers are ignored, yet neither is a copy of the other (each names its own settings). The
 * gate does not count such a pair. `lines` reads a file of `src/` as its lines.
 *
 * @example
 * isDeclarationList(pair, (file) => readFileSync(join(root, "src", file), "utf8").split("\n")); // true for two option lists
 */
export function isDeclarationList(pair: ClonePair, lines: (file: string) => readonly string[]): boolean {
  const onlyDeclarations = (place: ClonePair["first"]) =>
    lines(place.file)
      .slice(place.start - 1, place.end)
      .every((line) => DECLARATION_OR_COMMENT.test(line));
  return onlyDeclarations(pair.first) && onlyDeclarations(pair.second);
}

/** A blank line, a comment line, an import, a one-line type alias, a property declaration (`readonly name?: T;`), or an interface's own brace lines. */
const DECLARATION_OR_COMMENT =
  /^\s*(?:$|import .*;$|export type [\w$]+ = .*;$|\/\*\*?|\*|\/\/|(?:readonly\s+)?[\w$]+\??:\s.*;$|export interface [\w$]+(?:<[^>]*>)?(?: extends [^{]+)? \{$|\})/;

/**
 * Holds the pairs against the budget: more than `maxPairs` fails. Every pair is listed either way,
 * so the log says where to look.
 *
 * @example
 * checkDuplication(findClonePairs(root), { maxPairs: 5 }).ok;
 */
export function checkDuplication(pairs: readonly ClonePair[], budget: DuplicationBudget): GateVerdict {
  const lines = [
    ...pairs.map((pair) => `${where(pair.first)} ~ ${where(pair.second)} (${pair.lines} lines)`),
    `copy-paste gate: ${pairs.length} pairs of repeated blocks in src/ (budget ${budget.maxPairs})`,
  ];
  if (pairs.length > budget.maxPairs) {
    return {
      ok: false,
      lines: [
        ...lines,
        `copy-paste gate: FAILED: expected at most ${budget.maxPairs} pairs, but found ${pairs.length}; make one piece of code serve both places`,
      ],
    };
  }
  return {
    ok: true,
    lines: [
      ...lines,
      pairs.length < budget.maxPairs ? `copy-paste gate: passed; lower duplication.maxPairs in budgets.json to ${pairs.length}` : "copy-paste gate: passed",
    ],
  };
}

function where(place: ClonePlace): string {
  return `${place.file}:${place.start}-${place.end}`;
}

function place(value: unknown, path: string): ClonePlace {
  const file = field(value, "name");
  if (typeof file !== "string") throw new TypeError(`expected ${path}.name to be a file name, but got ${JSON.stringify(file) ?? "nothing"}`);
  return { file, start: whole(field(value, "start"), `${path}.start`), end: whole(field(value, "end"), `${path}.end`) };
}

function whole(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw new TypeError(`expected ${path} to be a whole number, but got ${JSON.stringify(value) ?? "nothing"}`);
  return value;
}
