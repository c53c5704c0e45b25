/**
 * Not a test: a measurement (docs/durability.md §6). The heap growth of one 50 MB answer into
 * `memoryStore({ maxBytes: 1 MiB })`, 10 KiB deltas, each a fresh string as a model's are:
 *   node --expose-gc -r ts-node/register/transpile-only test/server/store/heapOfLargeRun.ts
 * Before the byte rule: 50.4–50.6 MiB while the run was live, the thread evicted at its end.
 * After: at most 0.3 MiB (noise), the run ended RUN_TOO_LARGE after 0.12 MiB of text, the thread kept.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";

const MiB = 1024 * 1024;
const CHUNK = 10 * 1024;

function heap(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(gc: () => void): Promise<void> {
  const store = memoryStore({ maxBytes: MiB });
  const base = heap(gc);
  let live = 0;
  let accepted = 0;
  let refused = "";
  // The writer lives in this scope only, as it does in serveRun: once the run is over, nothing but the store holds it.
  await (async () => {
    const writer = await store.beginRun(runAgentInput("big", "r1"));
    await writer.append([ev.textMessageStart("m1")]);
    for (let i = 0; i * CHUNK < 50 * MiB; i++) {
      const delta = String.fromCharCode(97 + (i % 26)).repeat(CHUNK);
      try {
        await writer.append([ev.textMessageContent("m1", delta)]);
        accepted += CHUNK;
      } catch (error) {
        if (refused === "") refused = error instanceof Error ? error.message : String(error);
      }
    }
    live = heap(gc);
    await writer.append([ev.textMessageEnd("m1"), ev.runFinished("big", "r1")]).catch(() => undefined); // over already if it was refused
  })();
  const ended = heap(gc);
  const mib = (bytes: number): number => Math.round((bytes / MiB) * 100) / 100;
  console.log(
    JSON.stringify({ acceptedMiB: mib(accepted), liveGrowthMiB: mib(live - base), endedGrowthMiB: mib(ended - base), stats: store.stats(), refused }, null, 2),
  );
}

const exposed: unknown = Reflect.get(globalThis, "gc");
if (typeof exposed !== "function") throw new Error("expected node --expose-gc, but global.gc is missing");
// eslint-disable-next-line @typescript-eslint/no-unsafe-return -- gc, exposed by --expose-gc, returns nothing
void main(() => Reflect.apply(exposed, undefined, []));
