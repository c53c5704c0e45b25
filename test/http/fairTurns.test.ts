/**
 * Issue #14 C4: paced producers take turns on the event loop. `fairTurns` gives each open stream a
 * slice of the budget; once it is used up, the stream's next `ready()` resolves in a later
 * macrotask, so concurrent runs interleave and timers are not starved. Timing is injected (a fake
 * clock), so nothing here sleeps; the lag figures are measured in `npm run test:load`.
 */
import { createHandler } from "../../src/server/http/createHandler";
import { fairTurns } from "../../src/server/http/fairTurns";
import type { Agent } from "../../src/server/Agent";
import { serve, type Served } from "../../src/node/serve";
import { validBody } from "./loopback";

/** A clock that advances `step` ms each time it is read. */
function steppingClock(step: number): () => number {
  let now = 0;
  return () => (now += step);
}

/** A `defer` that holds the callbacks until `flush()`. */
function heldDefer() {
  const pending: (() => void)[] = [];
  return {
    defer: (resume: () => void) => void pending.push(resume),
    flush: () => pending.splice(0).forEach((resume) => resume()),
    get size() {
      return pending.length;
    },
  };
}

describe("fairTurns", () => {
  test("a stream alone runs for its slice, then waits for a later macrotask, which starts a new slice", async () => {
    let now = 0;
    const held = heldDefer();
    const turn = fairTurns({ budgetMs: 10, sliceMs: 1, now: () => now, defer: held.defer }).join();
    expect(turn.pause()).toBeUndefined(); // the slice starts at its first check
    now = 0.9;
    expect(turn.pause()).toBeUndefined();
    now = 1;
    const paused = turn.pause();
    expect(paused).toBeInstanceOf(Promise);
    let resumed = false;
    void paused!.then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    held.flush();
    await paused;
    expect(resumed).toBe(true);
    now = 1.5;
    expect(turn.pause()).toBeUndefined(); // a new slice, from this check on
  });

  test("the line is first in, first out, and one loop turn resumes only budget / slice streams", async () => {
    let now = 0;
    const held = heldDefer();
    const turns = fairTurns({ budgetMs: 2, sliceMs: 1, now: () => now, defer: held.defer });
    const [a, b, c] = [turns.join(), turns.join(), turns.join()];
    for (const turn of [a, b, c]) expect(turn.pause()).toBeUndefined();
    now = 5;
    const order: string[] = [];
    void a.pause()!.then(() => order.push("a"));
    void b.pause()!.then(() => order.push("b"));
    void c.pause()!.then(() => order.push("c"));
    expect(turns.waiting).toBe(3);
    held.flush();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual(["a", "b"]);
    held.flush();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual(["a", "b", "c"]);
  });

  test("once the loop turn's budget is used, even a stream with a fresh slice waits", () => {
    let now = 0;
    const turns = fairTurns({ budgetMs: 10, sliceMs: 5, now: () => now, defer: heldDefer().defer });
    expect(turns.join().pause()).toBeUndefined(); // opens the turn's budget at 0
    now = 10;
    expect(turns.join().pause()).toBeInstanceOf(Promise);
  });

  test("a stream that leaves while it waits gives its place up and is released", async () => {
    let now = 0;
    const turns = fairTurns({ budgetMs: 10, sliceMs: 1, now: () => now, defer: heldDefer().defer });
    const turn = turns.join();
    expect(turn.pause()).toBeUndefined(); // within its slice: nothing to wait for
    now = 2;
    const paused = turn.pause();
    expect(turns.waiting).toBe(1);
    turn.leave();
    turn.leave(); // idempotent
    await paused;
    expect(turns.waiting).toBe(0);
    expect(turns.streams).toBe(0);
  });
});

describe("a paced agent behind createHandler", () => {
  test("yields to the event loop once its slice is used up, so a waiting macrotask runs mid-run", async () => {
    const deltasBeforeTheImmediate: number[] = [];
    let written = 0;
    const agent: Agent = {
      async run(ctx) {
        const message = ctx.assistantMessage();
        for (let i = 0; i < 200; i++) {
          await ctx.ready();
          message.delta("x");
          written++;
        }
        message.end();
      },
    };
    // each clock read takes 1 ms: a slice of 10 ms lasts about ten ready() calls
    const handler = createHandler(agent, { turns: fairTurns({ budgetMs: 100, sliceMs: 10, now: steppingClock(1) }) });
    const response = await handler(new Request("http://127.0.0.1/", { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody }));
    setImmediate(() => deltasBeforeTheImmediate.push(written));
    await response.text();
    expect(written).toBe(200);
    // without turns, every ready() resolves as a microtask and the immediate runs only after all 200
    expect(deltasBeforeTheImmediate).toHaveLength(1);
    expect(deltasBeforeTheImmediate[0]).toBeLessThan(50);
  });

  test("over HTTP, concurrent paced runs are all live at once instead of one after another", async () => {
    const runs = 8;
    let live = 0;
    let mostLive = 0;
    const agent: Agent = {
      async run(ctx) {
        live++;
        mostLive = Math.max(mostLive, live);
        try {
          const message = ctx.assistantMessage();
          for (let i = 0; i < 300; i++) {
            await ctx.ready();
            message.delta("some text ");
          }
          message.end();
        } finally {
          live--;
        }
      },
    };
    // a slice of 0 gives way at every ready(): the interleaving no longer depends on the machine's speed
    let served: Served | undefined;
    try {
      served = await serve(createHandler(agent, { turns: fairTurns({ budgetMs: 0, sliceMs: 0 }) }));
      const url = served.url;
      const bodies = await Promise.all(
        Array.from({ length: runs }, () =>
          fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody }).then((response) => response.text()),
        ),
      );
      expect(bodies.every((body) => body.includes('"RUN_FINISHED"'))).toBe(true);
      expect(mostLive).toBe(runs);
    } finally {
      await served?.close();
    }
  });
});
