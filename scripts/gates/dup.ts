/**
 * `npm run dup`: lists the pairs of repeated blocks jscpd finds within `src/` (settings in
 * `.jscpd.json`) and exits 1 when there are more than budgets.json allows
 * (docs/packaging.md#the-copy-paste-gate).
 */
import { join } from "node:path";
import { readBudgets } from "./budgets";
import { checkDuplication, findClonePairs } from "./duplication";

const verdict = checkDuplication(findClonePairs(join(__dirname, "..", "..")), readBudgets().duplication);
for (const line of verdict.lines) console.log(line);
process.exit(verdict.ok ? 0 : 1);
