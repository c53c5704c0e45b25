/**
 * The two mistakes a newcomer makes with the typed APIs get an error that names the mistake, as an
 * editor shows it (TypeScript's language service over the sources): a client tool whose `execute`
 * returns the wrong type (it used to open with `Promise.then`'s signature, 1,210 characters), and
 * an agent whose `run` is not `async` (it used to list "then, catch, finally" as missing).
 */
import * as path from "node:path";
import { ROOT } from "../dist/ensureBuilt";
import { openProbe, type Probe, type ProbeError } from "./quickInfo";

const PROBE = `
import * as t from "io-ts";
import { clientTool } from "../../src/client/tools/clientTool";
import { success, type Agent } from "../../src/server/Agent";

const DateIso = new t.Type<Date, string, unknown>("DateIso", (u): u is Date => u instanceof Date, (u, c) => t.failure(u, c), (d) => d.toISOString());
clientTool({ name: "clock", description: "Now", result: DateIso, execute: async () => "noon" });
clientTool({ name: "clock", description: "Now", result: DateIso, execute: () => "noon" });
const method: Agent = { run(ctx) { ctx.say("hi"); return success(); } };
const arrow: Agent = { run: (ctx) => { ctx.say("hi"); return success(); } };
const fine: Agent = { async run(ctx) { ctx.say("hi"); return success(); } };
export { method, arrow, fine };
`;

let errors: readonly ProbeError[];
beforeAll(() => {
  const probe: Probe = openProbe(path.join(ROOT, "test/types/errorMessages-probe.ts"), path.join(ROOT, "tsconfig.json"), PROBE);
  errors = probe.errors();
}, 120_000);

const on = (fragment: string): ProbeError[] => errors.filter((error) => error.line.includes(fragment));

test("only the four wrong lines err", () => {
  expect(errors.map((error) => error.line)).toEqual([
    expect.stringContaining("execute: async () =>"),
    expect.stringContaining("execute: () =>"),
    expect.stringContaining("const method"),
    expect.stringContaining("const arrow"),
  ]);
});

test("an async execute that returns the wrong type: the result types, not then's signature", () => {
  const [error] = on("execute: async () =>");
  expect(error?.text.split("\n").slice(0, 3)).toEqual([
    "Type 'Promise<string>' is not assignable to type 'Date | Promise<Date> | PromiseLike<Date>'.",
    "  Type 'Promise<string>' is not assignable to type 'Promise<Date>'.",
    "    Type 'string' is not assignable to type 'Date'.",
  ]);
  expect(error?.text).not.toMatch(/onfulfilled|TResult1/);
  expect(error?.text.length).toBeLessThan(400);
});

test("a plain execute that returns the wrong type", () => {
  const [error] = on("execute: () =>");
  expect(error?.text.split("\n")[0]).toBe("Type 'string' is not assignable to type 'Date | Promise<Date> | PromiseLike<Date>'.");
  expect(error?.text.length).toBeLessThan(300);
});

test("a run that is not async: 'then' is missing (a promise is needed), not Promise's member list", () => {
  const [method] = on("const method");
  const [arrow] = on("const arrow");
  for (const error of [method, arrow])
    expect(error?.text).toMatch(/^ *Property 'then' is missing in type '.*' but required in type 'PromiseLike<void \| RunOutcome>'\.$/m);
  for (const error of [method, arrow]) {
    expect(error?.text).not.toMatch(/catch, finally/);
    expect(error?.text.length).toBeLessThan(500);
  }
});
