/**
 * `npm run dup`: lists the pairs of repeated blocks jscpd finds within `src/` (settings in
 * `.jscpd.json`) and exits 1 when there are more than budgets.json allows
 * (docs/packaging.md#the-copy-paste-gate).
 */
import { join } from "node:path";
import { readBudgets } from "./budgets";
import { checkDuplication, findClonePairs, isListMatchingItself } from "./duplication";

const pairs = findClonePairs(join(__dirname, "..", ".."));
const lists = pairs.filter(isListMatchingItself);
const verdict = checkDuplication(
  pairs.filter((pair) => !isListMatchingItself(pair)),
  readBudgets().duplication,
);
for (const pair of lists)
  console.log(`(not counted: a list matching itself) ${pair.first.file}:${pair.first.start}-${pair.first.end} ~ ${pair.second.start}-${pair.second.end}`);
for (const line of verdict.lines) console.log(line);
process.exit(verdict.ok ? 0 : 1);
