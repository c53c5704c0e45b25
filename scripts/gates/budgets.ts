/**
 * Reads `budgets.json`, the one file that holds the numbers CI's gates hold the tree to: the
 * browser bundle's size (docs/packaging.md#the-size-gate) and the copy-paste pairs within `src/`
 * (docs/packaging.md#the-copy-paste-gate). A budget that is missing or not a whole number is a
 * clear error, never a silent pass.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The most the browser bundle of `Session` + `HttpTransport` may weigh, minified and gzipped. */
export interface SizeBudget {
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** The most pairs of repeated blocks the copy-paste detector may report within `src/`. */
export interface DuplicationBudget {
  readonly maxPairs: number;
}

/** Every gate's budget, as `budgets.json` holds them. */
export interface Budgets {
  readonly bundle: SizeBudget;
  readonly duplication: DuplicationBudget;
}

/** Where the budgets live: the repository's root. */
export const BUDGETS_FILE = join(__dirname, "..", "..", "budgets.json");

/**
 * Reads and checks the budgets file.
 *
 * @example
 * const { bundle } = readBudgets(); // { bytes: 172541, gzipBytes: 50379 }
 */
export function readBudgets(file: string = BUDGETS_FILE): Budgets {
  return parseBudgets(JSON.parse(readFileSync(file, "utf8")), file);
}

/**
 * Checks a parsed budgets value, naming the first field that is missing or not a whole number.
 *
 * @example
 * parseBudgets({ bundle: { bytes: 1, gzipBytes: 1 }, duplication: { maxPairs: 5 } }, "budgets.json");
 */
export function parseBudgets(value: unknown, file: string): Budgets {
  return {
    bundle: { bytes: count(value, ["bundle", "bytes"], file), gzipBytes: count(value, ["bundle", "gzipBytes"], file) },
    duplication: { maxPairs: count(value, ["duplication", "maxPairs"], file) },
  };
}

function count(value: unknown, path: readonly string[], file: string): number {
  let at: unknown = value;
  for (const key of path) at = field(at, key);
  if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 0) {
    throw new TypeError(`${file}: expected ${path.join(".")} to be a whole number of at least 0, but got ${JSON.stringify(at) ?? "nothing"}`);
  }
  return at;
}

/**
 * The member `key` of a parsed JSON object, or `undefined` when `value` is not one.
 *
 * @example
 * field({ a: 1 }, "a"); // 1
 */
export function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
