/**
 * `npm run dup`: lists the pairs of repeated blocks jscpd finds within `src/` (settings in
 * `.jscpd.json`) and exits 1 when there are more than budgets.json allows
 * (docs/packaging.md#the-copy-paste-gate).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readBudgets } from "./budgets";
import { checkDuplication, findClonePairs, isDeclarationList, isListMatchingItself } from "./duplication";

const root = join(__dirname, "..", "..");
const linesOf = (file: string) => readFileSync(join(root, "src", file), "utf8").split("\n");
const pairs = findClonePairs(root);
const lists = pairs.filter(isListMatchingItself);
const declarations = pairs.filter((pair) => !isListMatchingItself(pair) && isDeclarationList(pair, linesOf));
const verdict = checkDuplication(
  pairs.filter((pair) => !isListMatchingItself(pair) && !declarations.includes(pair)),
  readBudgets().duplication,
);
for (const pair of lists)
  console.log(`(not counted: a list matching itself) ${pair.first.file}:${pair.first.start}-${pair.first.end} ~ ${pair.second.start}-${pair.second.end}`);
for (const pair of declarations)
  console.log(
    `(not counted: two lists of declarations) ${pair.first.file}:${pair.first.start}-${pair.first.end} ~ ${pair.second.file}:${pair.second.start}-${pair.second.end}`,
  );
for (const line of verdict.lines) console.log(line);
process.exit(verdict.ok ? 0 : 1);
