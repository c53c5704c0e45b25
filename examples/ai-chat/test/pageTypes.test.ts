/**
 * The chat page is TSX, which the project's tsconfig does not compile (it has no `jsx` setting and
 * leaves examples/ai-chat/page out), and Vite strips types without checking them. So the compiler
 * runs here over the page's own tsconfig (the page, what it imports, and its e2e test).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./serveScript";

test("the chat page and its e2e test typecheck", () => {
  let output = "";
  try {
    execFileSync(
      process.execPath,
      [require.resolve("typescript/bin/tsc"), "-p", join("examples", "ai-chat", "page", "tsconfig.json"), "--noEmit", "--pretty", "false"],
      { cwd: ROOT, encoding: "utf8" },
    );
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
}, 120_000);
