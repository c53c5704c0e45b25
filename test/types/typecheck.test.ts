// Jest transpiles without type checking (fast, per file); this one test runs the compiler over the
// whole project, so type errors and every `@ts-expect-error` in test/types fail the suite.
import { execFileSync } from "node:child_process";
import * as path from "node:path";

test("the whole project typechecks, type-level tests included", () => {
  const root = path.resolve(__dirname, "../..");
  const tsc = require.resolve("typescript/bin/tsc");
  let output = "";
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit", "--pretty", "false"], { cwd: root, encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
}, 180_000);
