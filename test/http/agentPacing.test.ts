import { Subject, firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import { createHandler } from "../../src/server/http/createHandler";
import { run } from "../../src/server/run";
import type { Agent } from "../../src/server/Agent";
import { validBody } from "./loopback";

/** An agent that streams as fast as it is allowed: it awaits `ctx.ready()` before every delta. */
function eagerAgent(total: number, progress: { emitted: number }, waiting: Subject<number>): Agent {
  return {
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < total; i++) {
        const free = ctx.ready();
        const turn = await Promise.race([free.then(() => "free" as const), new Promise<"waiting">((resolve) => setImmediate(() => resolve("waiting")))]);
        if (turn === "waiting") {
          waiting.next(progress.emitted);
          await free;
        }
        message.delta("x".repeat(100));
        progress.emitted++;
      }
      message.end();
      return { type: "success" };
    },
  };
}

const post = () => new Request("http://127.0.0.1/", { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody });

describe("an Agent served by createHandler follows the reader's pace through ctx.ready()", () => {
  it("stops at the high-water mark while nobody reads, and goes on when the reader does", async () => {
    const progress = { emitted: 0 };
    const waiting = new Subject<number>();
    const handler = createHandler(eagerAgent(10_000, progress, waiting), { highWaterMark: 8 });
    const reader = (await handler(post())).body!.getReader();
    const blocked = firstValueFrom(waiting);
    const first = await reader.read(); // starts the run; then nobody reads
    expect(first.done).toBe(false);
    // The first read took the agent's burst until the queue was full (RUN_STARTED, TEXT_MESSAGE_START
    // and the deltas it had sent); then at most 8 more fit before the agent waits.
    const deltasRead = new TextDecoder()
      .decode(first.value)
      .split("\n\n")
      .filter((frame) => frame.includes("TEXT_MESSAGE_CONTENT")).length;
    const emittedWhenBlocked = await blocked;
    expect(emittedWhenBlocked).toBeGreaterThan(deltasRead);
    expect(emittedWhenBlocked).toBeLessThanOrEqual(deltasRead + 8);
    expect(progress.emitted).toBe(emittedWhenBlocked);

    const next = firstValueFrom(waiting);
    await reader.read(); // takes the queue, which lets the agent go on until the queue is full again
    expect(await next).toBeGreaterThan(emittedWhenBlocked);
    expect(progress.emitted).toBeLessThanOrEqual(emittedWhenBlocked + 8);
    await reader.cancel();
  });

  it("without a paced consumer, ctx.ready() resolves at once", async () => {
    const progress = { emitted: 0 };
    const waiting = new Subject<number>();
    const waited: number[] = [];
    waiting.subscribe((count) => waited.push(count));
    const events = await lastValueFrom(run(eagerAgent(50, progress, waiting), runAgentInput("t", "r")).pipe(toArray()));
    expect(progress.emitted).toBe(50);
    expect(waited).toEqual([]);
    expect(events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT")).toHaveLength(50);
  });
});
