/** docs/observability.md#traces shows the trace a real run makes today: the planner's span tree, printed again here. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { plannerTrace } from "./plannerTrace";

test("the span tree in docs/observability.md#traces is the one the planner's run and resume make", async () => {
  const page = readFileSync(path.resolve(__dirname, "../../../docs/observability.md"), "utf8");
  const tree = await plannerTrace();
  expect(tree.split("\n").length).toBeGreaterThan(8);
  expect(page).toContain("```text\n" + tree + "\n```");
});
