/**
 * Issue #14 C1: whatever an agent resolves or rejects with (a BigInt, a cycle, a throwing getter, a
 * Proxy, a non-Error rejection), its run gets exactly one terminal event, in process and over HTTP
 * (where the response ends), and formatting the message never throws inside the driver.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { runAgentInput } from "../../src/protocol/build";
import { createHandler } from "../../src/server/http/createHandler";
import { run } from "../../src/server/run";
import { serve, type Served } from "../../src/node/serve";
import { parseSseBody, validBody, within } from "../http/loopback";
import { ODD_AGENTS } from "./fixtures/oddAgents";
import { collect, expectAccepted } from "./support";

const terminalsOf = (events: readonly { type: string }[]) => events.filter((event) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR");

describe.each(ODD_AGENTS)("an agent that $name", ({ agent, terminal, message, code }) => {
  test("gets exactly one terminal event, last, naming what was wrong (in process)", async () => {
    const events = await within(2000, collect(run(agent, runAgentInput("t", "r"))), "the run to complete");
    expect(events[0].type).toBe("RUN_STARTED");
    expect(terminalsOf(events)).toHaveLength(1);
    const last = events[events.length - 1];
    expect(last.type).toBe(terminal);
    if (last.type === "RUN_ERROR") {
      expect(last.message).toContain(message);
      expect(last.code).toBe(code);
    }
    await expectAccepted(events);
  });

  test("over HTTP, the response ends after that one terminal event", async () => {
    let served: Served | undefined;
    try {
      served = await serve(createHandler(agent));
      const url = served.url;
      const text = await within(
        2000,
        fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody }).then((response) => response.text()),
        "the response to end",
      );
      const events = parseSseBody(text);
      expect(terminalsOf(events)).toHaveLength(1);
      expect(events[events.length - 1].type).toBe(terminal);
    } finally {
      await served?.close();
    }
  });
});

test("no unhandled rejection escapes, and each odd run gets one terminal event (in a real Node process)", () => {
  const fixture = path.join(__dirname, "fixtures", "oddOutcomesRun.ts");
  const report = JSON.parse(
    execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", fixture], { cwd: path.join(__dirname, "..", ".."), encoding: "utf8" }),
  );
  // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- the child's JSON report, whose members are asserted right here
  expect(report.unhandled).toEqual([]);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-member-access -- the child's JSON report, whose members are asserted right here
  expect(Object.values(report.terminals)).toEqual(ODD_AGENTS.map(() => 1));
});
