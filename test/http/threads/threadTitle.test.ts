/**
 * Titles set from within a run (docs/threads.md#the-thread-list): `ctx.setThreadTitle` on an
 * Agent's context and `setThreadTitle` on a run function's request reach the store's run writer,
 * so the list shows them; without a store both resolve and do nothing; `createRunContext` hands
 * the title to its option.
 */
import { defer, from, mergeMap } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { serve } from "../../../src/node/serve";
import { success, type Agent } from "../../../src/server/Agent";
import { createHandler, type RunFunction } from "../../../src/server/http/createHandler";
import { createRunContext } from "../../../src/server/createRunContext";
import type { ThreadPage } from "../../../src/thread/threadList";
import { closeAll, inputFor, serveStored } from "../durable/support";
import { as, call, identifyByHeader } from "./support";

afterEach(closeAll);

const titling: Agent = {
  async run(ctx) {
    await ctx.setThreadTitle(`About ${ctx.lastUserText() ?? "nothing"}`);
    ctx.say("done");
    return success();
  },
};

const titlingFunction: RunFunction = (input, { setThreadTitle }) =>
  defer(() => from(setThreadTitle("Set by a function"))).pipe(
    mergeMap(() => from([ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId, { outcome: { type: "success" } })])),
  );

test("an Agent's ctx.setThreadTitle and a run function's setThreadTitle reach the list", async () => {
  for (const [source, title] of [
    [titling, "About Lisbon"],
    [titlingFunction, "Set by a function"],
  ] as const) {
    const { url } = await serveStored(source, { identify: identifyByHeader });
    const run = await call("POST", url, inputFor("t1", "r1", "Lisbon"), as("alice"));
    expect(run.text).toContain("RUN_FINISHED");
    const page = JSON.parse((await call("GET", `${url}/threads`, undefined, as("alice"))).text) as ThreadPage;
    expect(page.threads.map((row) => row.title)).toEqual([title]);
  }
});

test("without a store there is no list: setThreadTitle resolves and the run goes on", async () => {
  const served = await serve(createHandler(titling));
  try {
    const run = await call("POST", served.url, inputFor("t1", "r1", "Lisbon"));
    expect(run.status).toBe(200);
    expect(run.text).toContain('"delta":"done"');
    expect(run.text).toContain('"outcome":{"type":"success"}');
  } finally {
    await served.close();
  }
});

test("createRunContext hands ctx.setThreadTitle to its option; a title that is not a string throws a TypeError", async () => {
  const titles: string[] = [];
  const { ctx } = createRunContext(undefined, runAgentInput("t", "r"), { setThreadTitle: async (title) => void titles.push(title) });
  await ctx.setThreadTitle("Plans");
  expect(titles).toEqual(["Plans"]);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- a JavaScript caller's number, past the types on purpose
  expect(() => ctx.setThreadTitle(JSON.parse("42"))).toThrow(new TypeError("expected a string title for the thread, but got number"));
});
